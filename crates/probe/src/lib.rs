//! The probe (issue 32; content/method.md#probe): one unpaid request per ranked resource,
//! exactly the request its page shows, and what the answer said beside what the listing
//! says. `record` is the probe file's model and reader; `walk` makes one.

mod http;
mod live;
pub mod record;
pub mod walk;
