//! content/method.md#never-published over every answer the method gives on the real snapshots.

use crate::common::{real_snapshot, verdicts, REAL_DATES};
use method::answer::answer;
use method::index::Index;
use method::query::Filters;
use method::Method;

#[test]
fn no_answer_carries_a_verdict() {
    let m = Method::embedded();
    let all = Filters::parse(None, None, Some("50")).unwrap();
    let queries = ["", "weather", "token price", "ai", "search", "mandatory", "swap", "nft", "ens", "ethereum balance"];
    let mut checked = 0;
    for date in REAL_DATES {
        let idx = Index::build(&real_snapshot(date), &m);
        for q in queries {
            let a = serde_json::to_value(answer(&idx, &m, q, &all)).unwrap();
            let found = verdicts::verdicts_in(&a);
            assert!(found.is_empty(), "{date} {q:?}: {found:?}");
            checked += 1;
        }
        // The build report is published too.
        let report = serde_json::to_value(&idx.report).unwrap();
        assert!(verdicts::verdicts_in(&report).is_empty());
    }
    assert_eq!(checked, 30);
}
