//! The published figures (content/method.md#figures). Each is a count or arithmetic on counts.

use std::str::FromStr;

use serde::{Serialize, Serializer};
use time::Date;

use catalogue::model::Quality;

/// The figures of one resource, before the query adds its match_score.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// The catalogue's `l30DaysTotalCalls`, unmodified; `None` when absent, null or
    /// dropped (not a non-negative whole JSON number).
    pub calls_30d: Option<u64>,
    /// The catalogue's `l30DaysUniquePayers`, unmodified; `None` as for `calls_30d`.
    pub unique_payers_30d: Option<u64>,
    pub calls_per_payer: Option<Thousandths>,
    pub days_since_last_call: Option<u64>,
}

/// A non-negative ratio kept as a whole number of thousandths, so it is exact and
/// prints the same everywhere. Serialised as a JSON number in its shortest form
/// (`1.003`, `0.5`, `2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Thousandths(pub(crate) u128);

impl Thousandths {
    /// Three decimals, always (`1.000`), for tables read by people.
    pub fn fixed(&self) -> String {
        format!("{}.{:03}", self.0 / 1000, self.0 % 1000)
    }

    /// Shortest form, as in JSON.
    pub(crate) fn shortest(&self) -> String {
        let fixed = self.fixed();
        fixed.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

impl Serialize for Thousandths {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Built from its decimal text so no binary float is involved.
        serde_json::Number::from_str(&self.shortest()).expect("a decimal is a JSON number").serialize(s)
    }
}

/// `calls / payers` rounded half-up to three decimals; `None` when no address paid or
/// either count is missing.
pub(crate) fn calls_per_payer(calls: Option<u64>, payers: Option<u64>) -> Option<Thousandths> {
    let (calls, payers) = (calls? as u128, payers? as u128);
    if payers == 0 {
        return None;
    }
    // round(calls * 1000 / payers), halves rounded up, in integers.
    Some(Thousandths((calls * 2000 + payers) / (2 * payers)))
}

/// Whole days from the UTC calendar date of the last paid call to the snapshot date.
/// A call dated after the snapshot date (clock skew between systems) counts as 0.
pub(crate) fn days_since_last_call(last_called_at_ms: Option<i64>, snapshot_date: Date) -> Option<u64> {
    const UNIX_EPOCH_JULIAN_DAY: i64 = 2_440_588;
    let call_day = last_called_at_ms?.div_euclid(86_400_000);
    let snapshot_day = snapshot_date.to_julian_day() as i64 - UNIX_EPOCH_JULIAN_DAY;
    Some((snapshot_day - call_day).max(0) as u64)
}

pub(crate) fn figures(quality: &Quality, snapshot_date: Date) -> Figures {
    Figures {
        calls_30d: quality.calls_30d,
        unique_payers_30d: quality.unique_payers_30d,
        calls_per_payer: calls_per_payer(quality.calls_30d, quality.unique_payers_30d),
        days_since_last_call: days_since_last_call(quality.last_called_at_ms, snapshot_date),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catalogue::model::Resource;
    use time::macros::date;

    /// The figures of an item whose `quality` is written as JSON text (numbers as sent).
    fn figures_of(quality: &str) -> (Figures, usize) {
        let text = format!(r#"{{"resource": "https://a.example/f", "quality": {quality}}}"#);
        let r = Resource::from_value(&serde_json::from_str(&text).unwrap()).unwrap();
        (figures(&r.quality, date!(2026 - 08 - 20)), r.drops.len())
    }

    #[test]
    fn published_counters_are_the_catalogues_own() {
        let (f, drops) = figures_of(
            r#"{"l30DaysTotalCalls": 670, "l30DaysUniquePayers": 668, "lastCalledAt": "2026-08-19T10:00:00.123Z"}"#,
        );
        assert_eq!(drops, 0);
        assert_eq!((f.calls_30d, f.unique_payers_30d), (Some(670), Some(668)));
        assert_eq!(f.calls_per_payer.map(|t| t.fixed()), Some("1.003".to_owned()));
        assert_eq!(f.days_since_last_call, Some(1));
        // 12.0 and 1e3 are whole JSON numbers: published as 12 and 1000.
        let (f, drops) = figures_of(r#"{"l30DaysTotalCalls": 1e3, "l30DaysUniquePayers": 12.0}"#);
        assert_eq!(drops, 0);
        assert_eq!((f.calls_30d, f.unique_payers_30d), (Some(1000), Some(12)));
        assert_eq!(f.calls_per_payer.map(|t| t.fixed()), Some("83.333".to_owned()));
    }

    #[test]
    fn a_dropped_counter_leaves_its_figure_and_what_follows_from_it_null() {
        // Each bad value nulls its own figure and the ratio; the good counter beside it stays.
        for bad in [r#""12""#, "-3", "2.5", "1e400", "true", "{}", "[]"] {
            let (f, drops) = figures_of(&format!(r#"{{"l30DaysTotalCalls": {bad}, "l30DaysUniquePayers": 4}}"#));
            assert_eq!(drops, 1, "{bad}");
            assert_eq!((f.calls_30d, f.unique_payers_30d, f.calls_per_payer), (None, Some(4), None), "{bad}");
            let (f, drops) = figures_of(&format!(r#"{{"l30DaysTotalCalls": 9, "l30DaysUniquePayers": {bad}}}"#));
            assert_eq!(drops, 1, "{bad}");
            assert_eq!((f.calls_30d, f.unique_payers_30d, f.calls_per_payer), (Some(9), None, None), "{bad}");
        }
        // A dropped lastCalledAt: no days_since_last_call.
        for bad in ["-1787133600123", "1787133600123.5", r#""yesterday""#, "false"] {
            let (f, drops) = figures_of(&format!(r#"{{"lastCalledAt": {bad}}}"#));
            assert_eq!((f.days_since_last_call, drops), (None, 1), "{bad}");
        }
        // Missing or null: null figures, no drop.
        let (f, drops) = figures_of(r#"{"l30DaysTotalCalls": null}"#);
        assert_eq!((f, drops), (Figures::default(), 0));
    }

    #[test]
    fn ratio_rounds_half_up_to_three_decimals() {
        assert_eq!(calls_per_payer(Some(670), Some(668)).unwrap().fixed(), "1.003");
        assert_eq!(calls_per_payer(Some(1), Some(3)).unwrap().fixed(), "0.333");
        assert_eq!(calls_per_payer(Some(2), Some(3)).unwrap().fixed(), "0.667");
        // 1/8 = 0.125 exactly; 1/16 = 0.0625 rounds half-up to 0.063.
        assert_eq!(calls_per_payer(Some(1), Some(8)).unwrap().fixed(), "0.125");
        assert_eq!(calls_per_payer(Some(1), Some(16)).unwrap().fixed(), "0.063");
        assert_eq!(calls_per_payer(Some(5), Some(2000)).unwrap().fixed(), "0.003");
        assert_eq!(calls_per_payer(Some(0), Some(7)).unwrap().fixed(), "0.000");
        assert_eq!(calls_per_payer(Some(u64::MAX), Some(1)).unwrap().0, u64::MAX as u128 * 1000);
    }

    #[test]
    fn ratio_is_null_without_payers() {
        assert_eq!(calls_per_payer(Some(5), Some(0)), None);
        assert_eq!(calls_per_payer(None, Some(3)), None);
        assert_eq!(calls_per_payer(Some(3), None), None);
    }

    #[test]
    fn ratio_serialises_as_shortest_json_number() {
        let j = |t: u128| serde_json::to_string(&Thousandths(t)).unwrap();
        assert_eq!(j(1003), "1.003");
        assert_eq!(j(500), "0.5");
        assert_eq!(j(2000), "2");
        assert_eq!(j(0), "0");
    }

    #[test]
    fn days_count_calendar_days_and_never_go_negative() {
        let snap = date!(2026 - 08 - 20);
        // 2026-08-19T23:59:59.999Z is one calendar day before.
        assert_eq!(days_since_last_call(Some(1_787_183_999_999), snap), Some(1));
        // 2026-08-20T00:00:00Z is the same day.
        assert_eq!(days_since_last_call(Some(1_787_184_000_000), snap), Some(0));
        // A call after the snapshot date is 0 days, not negative.
        assert_eq!(days_since_last_call(Some(1_790_000_000_000), snap), Some(0));
        assert_eq!(days_since_last_call(None, snap), None);
        // 2025-12-31 is 232 days before 2026-08-20.
        assert_eq!(days_since_last_call(Some(1_767_139_200_000), snap), Some(232));
    }
}
