//! Property tests: invariants of normalisation, tokenising and ordering that must hold
//! for every input, not only the ones we thought of.

use crate::common::{item, synthetic_snapshot};
use method::answer::{answer, match_score};
use method::index::Index;
use method::normalise::{contains_word, fold, is_word_char, normalise};
use method::query::{tokenise, Filters, MAX_TOKENS};
use method::Method;
use proptest::prelude::*;

/// Text mixing ASCII, separators, accented and CJK letters, digits of other scripts,
/// emoji, combining marks and hidden characters.
fn text() -> impl Strategy<Value = String> {
    let pieces = prop_oneof![
        "[a-zA-Z0-9]{1,8}",
        "[ \\-_./:?!,;]{1,3}",
        Just("Ünïcödé".to_owned()),
        Just("天气".to_owned()),
        Just("٣٤".to_owned()),
        Just("🚀".to_owned()),
        Just("ΣΑΣ".to_owned()),
        Just("ΣΊΣΥΦΟΣ".to_owned()),
        Just("σίσυφος".to_owned()),
        Just("Straße".to_owned()),
        Just("ﬁ".to_owned()),
        Just("İ".to_owned()),
        Just("e\u{301}".to_owned()),
        Just("\u{200B}".to_owned()),
        Just("ǅ".to_owned()),
        any::<char>().prop_map(|c| c.to_string()),
    ];
    proptest::collection::vec(pieces, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn normalised_text_is_padded_single_spaced_words(s in text()) {
        let n = normalise(&s);
        prop_assert!(n.starts_with(' ') && n.ends_with(' '));
        prop_assert!(!n.contains("  ") || n == " ");
        for w in n.split(' ').filter(|w| !w.is_empty()) {
            prop_assert!(w.chars().all(is_word_char), "non-word char in {:?}", w);
        }
    }

    #[test]
    fn normalising_twice_changes_nothing(s in text()) {
        let once = normalise(&s);
        prop_assert_eq!(normalise(&once), once);
    }

    #[test]
    fn folding_is_per_character_and_stable(s in text()) {
        // What static/chars.js records (one folding per code point) folds any text.
        let each: String = s.chars().map(|c| fold(c.encode_utf8(&mut [0; 4])).into_owned()).collect();
        prop_assert_eq!(fold(&s), each.as_str());
        let folded = fold(&s).into_owned();
        prop_assert_eq!(fold(&folded), folded.as_str());
        prop_assert_eq!(normalise(&folded), normalise(&s));
    }

    #[test]
    fn a_word_in_capitals_or_small_letters_gives_the_same_tokens(s in "[a-zA-Zα-ω ßﬁ]{0,24}") {
        // Upper-cased, Rust writes ß as SS and ﬁ as FI; lower-cased, a final σ as ς.
        // Folded, all are one.
        prop_assert_eq!(tokenise(&s.to_uppercase()).tokens, tokenise(&s.to_lowercase()).tokens);
    }

    #[test]
    fn whole_word_match_is_word_membership(s in text(), t in text()) {
        let h = normalise(&s);
        for token in tokenise(&t).tokens {
            let member = h.split(' ').any(|w| w == token);
            prop_assert_eq!(contains_word(&h, &token), member);
            prop_assert_eq!(contains_word(&h, &token), h.contains(&format!(" {token} ")));
        }
    }

    #[test]
    fn tokens_are_few_unique_long_enough_and_words_of_the_query(q in text()) {
        let t = tokenise(&q);
        prop_assert!(t.tokens.len() <= MAX_TOKENS);
        let n = normalise(&q);
        for (i, tok) in t.tokens.iter().enumerate() {
            prop_assert!(tok.chars().count() >= 2);
            prop_assert!(!t.tokens[..i].contains(tok));
            prop_assert!(contains_word(&n, tok));
        }
        prop_assert!(t.dropped_short.iter().all(|d| d.chars().count() < 2));
        if !t.dropped_over_limit.is_empty() {
            prop_assert_eq!(t.tokens.len(), MAX_TOKENS);
        }
    }

    #[test]
    fn a_query_token_found_in_text_matches_that_text(s in text()) {
        // Every token of a text matches the text it came from.
        let h = normalise(&s);
        for token in tokenise(&s).tokens {
            prop_assert!(contains_word(&h, &token));
        }
    }
}

fn corpus() -> impl Strategy<Value = Vec<(u8, String, Option<u64>, Option<u64>)>> {
    let words = prop::sample::select(vec!["alpha", "beta", "gamma", "delta", "price", "feed", "天气", "ünï"]);
    proptest::collection::vec(
        (
            0u8..20,
            proptest::collection::vec(words, 0..5).prop_map(|w| w.join(" ")),
            prop::option::of(0u64..5),
            prop::option::of(0u64..5),
        ),
        1..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn answers_are_ordered_by_the_rule_and_truncated_after(
        rows in corpus(),
        q in prop::sample::select(vec!["alpha", "beta price", "", "feed 天气", "gamma delta alpha"]),
        limit in 1usize..=50,
    ) {
        let items = rows.iter().enumerate()
            .map(|(i, (host, d, p, c))| item(&format!("https://h{host}.example/{i}"), d, *p, *c))
            .collect();
        let m = Method::embedded();
        let idx = Index::build(&synthetic_snapshot("2026-08-20", items), &m);
        let full = answer(&idx, &m, q, &Filters::parse(None, None, Some("50")).unwrap());
        let cut = answer(&idx, &m, q, &Filters::parse(None, None, Some(&limit.to_string())).unwrap());
        // Truncation is a prefix of the full order.
        prop_assert_eq!(cut.meta.total_matched, full.meta.total_matched);
        prop_assert_eq!(cut.data.len(), full.data.len().min(limit));
        for (a, b) in cut.data.iter().zip(&full.data) {
            prop_assert_eq!(a.listing.resource, b.listing.resource);
        }
        // Every neighbour pair respects the four keys, strictly (URLs are unique).
        for w in full.data.windows(2) {
            let key = |r: &method::answer::Row| {
                let f = &r.listing.figures;
                (
                    std::cmp::Reverse(r.match_score),
                    std::cmp::Reverse(f.unique_payers_30d),
                    std::cmp::Reverse(f.calls_30d),
                    r.listing.resource.as_bytes().to_vec(),
                )
            };
            prop_assert!(key(&w[0]) < key(&w[1]));
        }
        // Every entry that has all tokens is in the answer, and nothing else is.
        let tokens = tokenise(q).tokens;
        let expected = idx.entries.iter().filter(|e| tokens.iter().all(|t| contains_word(&e.haystack, t))).count();
        prop_assert_eq!(full.meta.total_matched, expected.min(idx.entries.len()));
        for r in &full.data {
            let e = idx.entries.iter().find(|e| e.resource.url == r.listing.resource).unwrap();
            prop_assert_eq!(r.match_score, match_score(e, &tokens));
            prop_assert!(r.match_score as usize <= tokens.len());
        }
    }
}
