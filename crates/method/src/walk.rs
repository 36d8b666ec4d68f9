//! The weekly walk as each snapshot states it: the date of its walk, the date the next
//! walk is due, and the date after which it is stale (content/method.md#limits). Fixed
//! dates worked out from the walk's date alone, never from the build's clock, so a dated
//! folder is the same whenever it is built; a reader compares them with its own today.

use serde::Serialize;
use time::Duration;

use catalogue::snapshot::parse_date;

/// Days between two walks of the catalogue: the method's promise.
pub(crate) const INTERVAL_DAYS: u32 = 7;
/// A snapshot is stale once this many walks are overdue since its own.
pub(crate) const STALE_AFTER_WALKS: u32 = 2;

/// The walk a snapshot came from, and what follows from its date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Walk {
    /// The walk's date: the snapshot's (YYYY-MM-DD, UTC).
    pub date: String,
    pub interval_days: u32,
    /// The walk's date plus one interval: when the next snapshot is due.
    pub next_due: String,
    /// The walk's date plus two intervals: after this day the snapshot is stale.
    pub stale_after: String,
}

fn ymd(date: time::Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), date.month() as u8, date.day())
}

impl Walk {
    /// The walk of a snapshot dated `date` (YYYY-MM-DD; snapshot dates are validated on
    /// read, so an invalid one is a bug).
    pub fn of(date: &str) -> Walk {
        let walked = parse_date(date).expect("snapshot dates are validated on read");
        let after = |walks: u32| ymd(walked + Duration::days(i64::from(walks * INTERVAL_DAYS)));
        Walk {
            date: date.to_owned(),
            interval_days: INTERVAL_DAYS,
            next_due: after(1),
            stale_after: after(STALE_AFTER_WALKS),
        }
    }

    /// Whether this snapshot is stale on `day` (YYYY-MM-DD): `day` is after `stale_after`.
    /// Dates written YYYY-MM-DD order as text.
    pub fn stale_on(&self, day: &str) -> bool {
        day > self.stale_after.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_follow_from_the_walk_alone() {
        let w = Walk::of("2025-12-31");
        assert_eq!(
            w,
            Walk {
                date: "2025-12-31".into(),
                interval_days: 7,
                next_due: "2026-01-07".into(),
                stale_after: "2026-01-14".into()
            }
        );
        assert!(!w.stale_on("2026-01-14"));
        assert!(w.stale_on("2026-01-15"));
        assert_eq!(Walk::of("2028-02-22").stale_after, "2028-03-07", "a leap year's 29 February counts");
    }
}
