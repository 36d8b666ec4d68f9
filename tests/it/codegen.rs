//! The generated files (crates/xtask): static/rules.js and static/chars.js are what the
//! composer imports, so they must say what this build's Rust code says. Regenerate them
//! with `cargo xtask codegen`.

use method::names::token_file;
use xtask::chars::chars_module;
use xtask::rules::token_file_max_bytes;

use crate::common::repo_root;

/// Every generated file, as committed, is what the generator makes now.
#[test]
fn committed_generated_files_are_current() {
    for (rel, generated) in xtask::generated() {
        let committed = std::fs::read_to_string(repo_root().join(rel)).unwrap_or_default();
        assert!(committed == generated, "{rel} is stale: regenerate it with `cargo xtask codegen`");
    }
}

/// The `u-` and `h-` forms change over at the same length as the plain one.
#[test]
fn token_file_max_bytes_bounds_every_form() {
    let max = token_file_max_bytes();
    assert!(token_file(&"é".repeat(max / 2)).starts_with("u-"));
    assert!(token_file(&"é".repeat(max / 2 + 1)).starts_with("h-"));
    assert!(token_file(&"a".repeat(max + 1)).starts_with("h-"));
}

/// A decoder written from the encoding described in crates/xtask/src/chars.rs, used to check that the
/// module says exactly what Rust's functions say for every code point.
/// Word ranges (start, end exclusive) and the lower-case map.
type Decoded = (Vec<(u32, u32)>, std::collections::HashMap<u32, Vec<u32>>);

fn decode(module: &str) -> Decoded {
    let field = |name: &str| {
        let line = module.lines().find(|l| l.starts_with(&format!("export const {name} = "))).unwrap();
        line.split('"').nth(1).unwrap().to_owned()
    };
    let num = |s: &str| -> i64 {
        if let Some(rest) = s.strip_prefix('-') {
            -(i64::from_str_radix(rest, 36).unwrap())
        } else {
            i64::from_str_radix(s, 36).unwrap()
        }
    };
    let mut ranges = Vec::new();
    let mut end = 0i64;
    for pair in field("WORD").split(',') {
        let (gap, len) = pair.split_once('.').unwrap();
        let start = end + num(gap);
        end = start + num(len);
        ranges.push((start as u32, end as u32));
    }
    let mut map = std::collections::HashMap::new();
    let mut start = 0i64;
    for run in field("LOWER").split(',') {
        let p: Vec<i64> = run.split('.').map(num).collect();
        start += p[0];
        for k in 0..p[1] {
            let cp = start + k * p[2];
            map.insert(cp as u32, vec![(cp + p[3]) as u32]);
        }
    }
    for pair in field("LOWER_MULTI").split(',').filter(|s| !s.is_empty()) {
        let (cp, tail) = pair.split_once(':').unwrap();
        map.insert(num(cp) as u32, tail.split('.').map(|t| num(t) as u32).collect());
    }
    (ranges, map)
}

#[test]
fn module_agrees_with_rust_for_every_code_point() {
    let (ranges, map) = decode(&chars_module());
    let mut r = 0;
    for cp in 0..=0x10FFFFu32 {
        while r < ranges.len() && ranges[r].1 <= cp {
            r += 1;
        }
        let in_table = r < ranges.len() && ranges[r].0 <= cp;
        let Some(c) = char::from_u32(cp) else {
            assert!(!in_table, "surrogate {cp:x} marked as a word character");
            continue;
        };
        assert_eq!(in_table, c.is_alphanumeric(), "word class of U+{cp:04X}");
        let expected: Vec<u32> = c.to_lowercase().map(|l| l as u32).collect();
        let got = map.get(&cp).cloned().unwrap_or(vec![cp]);
        assert_eq!(got, expected, "lower case of U+{cp:04X}");
    }
}
