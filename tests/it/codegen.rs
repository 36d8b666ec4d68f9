//! The generated files (crates/xtask): static/rules.js and static/chars.js are what the
//! composer imports, so they must say what this build's Rust code says. Regenerate them
//! with `cargo xtask codegen`.

use method::names::token_file;
use method::normalise::{fold, is_word_char};
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
        assert_eq!(in_table, is_word_char(c), "word class of U+{cp:04X}");
        let expected: Vec<u32> = fold(c.encode_utf8(&mut [0; 4])).chars().map(|l| l as u32).collect();
        let got = map.get(&cp).cloned().unwrap_or(vec![cp]);
        assert_eq!(got, expected, "folding of U+{cp:04X}");
    }
}

/// The tables say what CaseFolding.txt says for a few code points, copied by hand, and
/// name both Unicode versions.
#[test]
fn module_holds_known_foldings() {
    let module = chars_module();
    let (ranges, map) = decode(&module);
    let folded = |cp: u32| map.get(&cp).cloned().unwrap_or(vec![cp]);
    assert_eq!(folded(0x03A3), [0x03C3]); // 03A3; C; 03C3; GREEK CAPITAL LETTER SIGMA
    assert_eq!(folded(0x03C2), [0x03C3]); // 03C2; C; 03C3; GREEK SMALL LETTER FINAL SIGMA
    assert_eq!(folded(0x00DF), [0x73, 0x73]); // 00DF; F; 0073 0073; SHARP S
    assert_eq!(folded(0xFB01), [0x66, 0x69]); // FB01; F; 0066 0069; LIGATURE FI
    assert_eq!(folded(0x0130), [0x69, 0x307]); // 0130; F; 0069 0307 (not T's 0069)
    assert_eq!(folded(0x0049), [0x69]); // 0049; C; 0069 (not T's 0131)
    assert_eq!(folded(0xAB70), [0x13A0]); // AB70; C; 13A0; CHEROKEE SMALL LETTER A
    assert_eq!(folded(0x13A0), [0x13A0]);
    assert_eq!(folded(0x03C3), [0x03C3]);
    assert!(ranges.iter().any(|&(s, e)| s <= 0x3C3 && 0x3C3 < e));
    assert!(module.contains(&format!("export const UNICODE_VERSION = \"{}\";", xtask_unicode_version())));
    assert!(module.contains("export const FOLD_UNICODE_VERSION = \"18.0.0\";"));
}

fn xtask_unicode_version() -> String {
    let (a, b, c) = char::UNICODE_VERSION;
    format!("{a}.{b}.{c}")
}
