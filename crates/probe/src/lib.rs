//! The probe (issue 32; content/method.md#probe): one unpaid request per ranked resource,
//! exactly the request its page shows, and what the answer said beside what the listing
//! says. `walk` makes a probe file; its model, reader and place beside the snapshot are the
//! method's (`method::probe`), since every surface publishes what it holds.

mod http;
mod live;
pub mod walk;
