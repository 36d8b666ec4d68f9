//! The probe (issue 32; content/method.md#probe): one unpaid request per ranked resource,
//! exactly the request its page shows, and what the answer said beside what the listing
//! says. `record` is the probe file's model and reader; `walk` makes one; `place` says where
//! a snapshot's probe file is kept and reads it.

mod http;
mod live;
pub mod place;
pub mod record;
pub mod walk;
