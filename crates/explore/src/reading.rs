//! Constraints stated in a need's words (content/explore.md#constraints): a price cap
//! ("under $0.01", "at most 2 cents a call"), a network ("on base", "paid on solana"),
//! no test networks ("no testnets", "mainnet only") and "cheapest". Explore reads them
//! as the method's filters (and, for "cheapest", a stronger price preference), shows
//! them back ("read as: max price $0.01") and ranks the rest of the words.
//!
//! The reading is a small scanner over ASCII, the same in static/explore.js, whose
//! phrase lists come from the constants here (static/rules.js): the text is cut into
//! numbers (`12`, `0.5`, `.5`), runs of ASCII letters (lower-cased) and the symbols `$`,
//! `¢`, `<`, `≤` and `=`; every other character only separates. Phrases are matched on
//! that sequence from left to right, the first that fits at a place wins, and the
//! characters of a matched phrase are blanked from the text before its words are cut.

use serde::Serialize;

use method::answer::qualifies;
use method::assets::Decimal;
use method::index::Entry;
use method::networks::{resolve, KnownNetwork};
use method::query::Filters;

/// Words before an amount that make it a cap ("under $0.01"); they are read with it.
pub const CAP_BEFORE: &[&str] = &[
    "under",
    "below",
    "less than",
    "cheaper than",
    "at most",
    "max",
    "maximum",
    "up to",
    "no more than",
    "not more than",
    "within",
    "costing",
    "priced at",
];
/// Words before an amount that make it a floor ("over $1"), which explore does not
/// read: the amount stays among the words.
pub const FLOOR_BEFORE: &[&str] = &["over", "above", "more than", "at least", "min", "minimum", "from"];
/// Units after a number that make it dollars.
pub const DOLLAR_UNITS: &[&str] = &["usd", "usdc", "dollar", "dollars"];
/// Units after a number that make it cents.
pub const CENT_UNITS: &[&str] = &["cent", "cents"];
/// Words after an amount read with it ("$0.01 or less", "2 cents per call").
pub const CAP_AFTER: &[&str] = &["or less", "or under", "max", "at most"];
/// Words after an amount that take the next word with them ("per call", "a query").
pub const PER: &[&str] = &["per", "a", "an", "each"];
/// Words before a network's name ("on base", "paid on solana").
pub const NETWORK_BEFORE: &[&str] =
    &["on", "via", "over", "using", "paid on", "paying on", "pay on", "payable on", "payment on", "settled on"];
/// Words after a network's name read with it ("base network").
pub const NETWORK_AFTER: &[&str] = &["network", "chain", "mainnet"];
/// Phrases that exclude test networks.
pub const NO_TESTNETS: &[&str] = &[
    "no testnet",
    "no testnets",
    "no test network",
    "no test networks",
    "without testnet",
    "without testnets",
    "without test networks",
    "exclude testnet",
    "exclude testnets",
    "excluding testnet",
    "excluding testnets",
    "exclude test networks",
    "excluding test networks",
    "not on testnet",
    "not on a testnet",
    "not testnet",
    "mainnet only",
    "only mainnet",
    "mainnets only",
    "only on mainnet",
];
/// Phrases that ask for the cheapest.
pub const CHEAPEST: &[&str] =
    &["cheapest", "cheaper", "cheap", "lowest price", "lowest cost", "low cost", "least expensive", "inexpensive"];

/// How each constraint is shown back, `{…}` filled in.
pub const READ_MAX_PRICE: &str = "max price ${max_price}";
pub const READ_NETWORK: &str = "network {network}";
pub const READ_NO_TESTNETS: &str = "no test networks";
pub const READ_CHEAPEST: &str = "cheapest first";

/// What a need's words say besides the need.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Constraints {
    /// USD per call, inclusive, read as the method's `max_price` (the lowest cap stated).
    pub(crate) max_price: Option<Decimal>,
    /// The CAIP-2 id of the network named, read as the method's `network`.
    pub(crate) network: Option<String>,
    pub(crate) exclude_testnets: bool,
    /// "cheapest": the price list counts as much as a retriever (content/explore.md#fusion).
    pub(crate) cheapest: bool,
}

impl Constraints {
    /// The method's filters these constraints are read as; `None` when there are none
    /// ("cheapest" is a preference, not a filter).
    pub(crate) fn filters(&self) -> Option<Filters> {
        let filters = Filters {
            max_price: self.max_price,
            network: self.network.clone(),
            exclude_testnets: self.exclude_testnets,
            ..Filters::default()
        };
        (filters.max_price.is_some() || filters.network.is_some() || filters.exclude_testnets).then_some(filters)
    }

    /// Whether the entry meets the filters.
    pub(crate) fn allow(filters: &Option<Filters>, entry: &Entry) -> bool {
        filters.as_ref().is_none_or(|f| qualifies(entry, &[], f))
    }
}

/// A need read: its constraints, how they are shown back, the phrases they were read
/// from, and the text left for the words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Reading {
    pub(crate) constraints: Constraints,
    pub(crate) read_as: Vec<String>,
    pub(crate) phrases: Vec<String>,
    pub(crate) rest: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Number,
    Letters,
    Symbol,
}

#[derive(Debug, Clone)]
struct Token {
    kind: Kind,
    text: String,
    /// Code-point span in the text.
    start: usize,
    end: usize,
}

fn scan(chars: &[char]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let digit = |j: usize| chars.get(j).is_some_and(|c| c.is_ascii_digit());
        if c.is_ascii_digit() || (c == '.' && digit(i + 1)) {
            let start = i;
            while digit(i) {
                i += 1;
            }
            if chars.get(i) == Some(&'.') && digit(i + 1) {
                i += 1;
                while digit(i) {
                    i += 1;
                }
            }
            out.push(Token { kind: Kind::Number, text: chars[start..i].iter().collect(), start, end: i });
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while chars.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
                i += 1;
            }
            let text = chars[start..i].iter().map(|c| c.to_ascii_lowercase()).collect();
            out.push(Token { kind: Kind::Letters, text, start, end: i });
        } else {
            if matches!(c, '$' | '¢' | '<' | '≤' | '=') {
                out.push(Token { kind: Kind::Symbol, text: c.to_string(), start: i, end: i + 1 });
            }
            i += 1;
        }
    }
    out
}

/// How many tokens from `at` spell `phrase` (words separated by spaces), or 0.
fn phrase_at(tokens: &[Token], at: usize, phrase: &str) -> usize {
    let words: Vec<&str> = phrase.split(' ').collect();
    let fits = words
        .iter()
        .enumerate()
        .all(|(k, w)| tokens.get(at + k).is_some_and(|t| t.kind == Kind::Letters && t.text == *w));
    if fits {
        words.len()
    } else {
        0
    }
}

/// The longest of `phrases` at `at`, in tokens (0 when none fits).
fn longest_at(tokens: &[Token], at: usize, phrases: &[&str]) -> usize {
    phrases.iter().map(|p| phrase_at(tokens, at, p)).max().unwrap_or(0)
}

/// The longest of `phrases` ending just before `at`, in tokens.
fn longest_before(tokens: &[Token], at: usize, phrases: &[&str]) -> usize {
    phrases
        .iter()
        .map(|p| {
            let n = p.split(' ').count();
            if n <= at && phrase_at(tokens, at - n, p) == n {
                n
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

/// An amount at `at`: its USD value and how many tokens it takes.
fn amount_at(tokens: &[Token], at: usize) -> Option<(Decimal, usize)> {
    let t = |k: usize| tokens.get(at + k);
    let is = |k: usize, kind: Kind, text: Option<&str>| {
        t(k).is_some_and(|t| t.kind == kind && text.is_none_or(|x| t.text == x))
    };
    // A number glued to letters before it ("gpt4") is part of a name, not an amount.
    let glued = |k: usize| {
        at + k > 0 && tokens[at + k - 1].kind == Kind::Letters && tokens[at + k - 1].end == tokens[at + k].start
    };
    if is(0, Kind::Symbol, Some("$")) && is(1, Kind::Number, None) {
        return Some((Decimal::parse(&t(1)?.text)?, 2));
    }
    if !is(0, Kind::Number, None) || glued(0) {
        return None;
    }
    let number = &t(0)?.text;
    if is(1, Kind::Symbol, Some("$"))
        || t(1).is_some_and(|u| u.kind == Kind::Letters && DOLLAR_UNITS.contains(&u.text.as_str()))
    {
        return Some((Decimal::parse(number)?, 2));
    }
    if is(1, Kind::Symbol, Some("¢"))
        || t(1).is_some_and(|u| u.kind == Kind::Letters && CENT_UNITS.contains(&u.text.as_str()))
    {
        return Some((cents(number)?, 2));
    }
    None
}

/// `number` cents in dollars, exactly (the point moved two places left).
fn cents(number: &str) -> Option<Decimal> {
    // Through text, so the method's limits on decimals and digits apply.
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits = format!("{int}{frac}");
    let scale = frac.len() + 2;
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (i, f) = padded.split_at(padded.len() - scale);
    Decimal::parse(&format!("{i}.{f}"))
}

/// Reads the constraints of `text`, naming networks as `known` does.
pub(crate) fn read(text: &str, known: &[KnownNetwork]) -> Reading {
    let chars: Vec<char> = text.chars().collect();
    let tokens = scan(&chars);
    let mut blank = vec![false; chars.len()];
    let mut c = Constraints::default();
    let mut phrases = Vec::new();
    let take = |from: usize, to: usize, blank: &mut Vec<bool>, phrases: &mut Vec<String>| {
        let (s, e) = (tokens[from].start, tokens[to - 1].end);
        blank[s..e].iter_mut().for_each(|b| *b = true);
        phrases.push(chars[s..e].iter().collect::<String>());
    };
    let mut i = 0;
    while i < tokens.len() {
        // A price: [cue] amount [after] [per word].
        let cue = longest_at(&tokens, i, CAP_BEFORE);
        let symbol_cue = if cue == 0 && matches!(tokens[i].text.as_str(), "<" | "≤") {
            1 + usize::from(tokens.get(i + 1).is_some_and(|t| t.text == "="))
        } else {
            0
        };
        let cue = cue + symbol_cue;
        if let Some((amount, n)) = amount_at(&tokens, i + cue) {
            let floor = cue == 0 && longest_before(&tokens, i, FLOOR_BEFORE) > 0;
            if !floor {
                let mut end = i + cue + n;
                end += longest_at(&tokens, end, CAP_AFTER);
                if PER.iter().any(|p| phrase_at(&tokens, end, p) == 1)
                    && tokens.get(end + 1).is_some_and(|t| t.kind == Kind::Letters)
                {
                    end += 2;
                }
                take(i, end, &mut blank, &mut phrases);
                if c.max_price.is_none_or(|m| amount.cmp_exact(&m).is_lt()) {
                    c.max_price = Some(amount);
                }
                i = end;
                continue;
            }
        }
        // A network: cue name [after], the name one or two words.
        let cue = longest_at(&tokens, i, NETWORK_BEFORE);
        if cue > 0 && c.network.is_none() {
            let named = [2, 1].into_iter().find_map(|n| {
                let words = tokens.get(i + cue..i + cue + n)?;
                if words.iter().any(|t| t.kind != Kind::Letters) {
                    return None;
                }
                let name = words.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
                Some((resolve(known, &name)?, n))
            });
            if let Some((network, n)) = named {
                let mut end = i + cue + n;
                end += longest_at(&tokens, end, NETWORK_AFTER);
                take(i, end, &mut blank, &mut phrases);
                c.network = Some(network.id.clone());
                i = end;
                continue;
            }
        }
        let n = longest_at(&tokens, i, NO_TESTNETS);
        if n > 0 {
            take(i, i + n, &mut blank, &mut phrases);
            c.exclude_testnets = true;
            i += n;
            continue;
        }
        let n = longest_at(&tokens, i, CHEAPEST);
        if n > 0 {
            take(i, i + n, &mut blank, &mut phrases);
            c.cheapest = true;
            i += n;
            continue;
        }
        i += 1;
    }
    let rest: String = chars.iter().zip(&blank).map(|(&ch, &b)| if b { ' ' } else { ch }).collect();
    let mut read_as = Vec::new();
    if let Some(max) = &c.max_price {
        read_as.push(READ_MAX_PRICE.replace("{max_price}", &max.to_string()));
    }
    if let Some(id) = &c.network {
        let described = known.iter().find(|k| &k.id == id).map_or_else(|| id.clone(), KnownNetwork::described);
        read_as.push(READ_NETWORK.replace("{network}", &described));
    }
    if c.exclude_testnets {
        read_as.push(READ_NO_TESTNETS.to_owned());
    }
    if c.cheapest {
        read_as.push(READ_CHEAPEST.to_owned());
    }
    Reading { constraints: c, read_as, phrases, rest }
}

#[cfg(test)]
mod tests {
    use super::*;
    use method::assets::AssetTable;

    fn known() -> Vec<KnownNetwork> {
        AssetTable::embedded().networks.iter().map(|n| KnownNetwork::in_table(n, 1)).collect()
    }

    fn read_text(text: &str) -> Reading {
        read(text, &known())
    }

    #[test]
    fn prices_in_dollars_and_cents() {
        let r = read_text("web search costing at most $0.01 per call");
        assert_eq!(r.constraints.max_price.map(|d| d.to_string()), Some("0.01".into()));
        assert_eq!(r.read_as, ["max price $0.01"]);
        assert_eq!(r.rest.split_whitespace().collect::<Vec<_>>(), ["web", "search", "costing"]);
        let r = read_text("twitter search under 1 cent");
        assert_eq!(r.constraints.max_price.unwrap().to_string(), "0.01");
        assert_eq!(r.rest.trim(), "twitter search");
        assert_eq!(read_text("news at most 0.02 usdc per call").constraints.max_price.unwrap().to_string(), "0.02");
        assert_eq!(read_text("songs below $.5 or less").constraints.max_price.unwrap().to_string(), "0.5");
        assert_eq!(read_text("x under 1.5 cents").constraints.max_price.unwrap().to_string(), "0.015");
        // The lowest of two caps.
        assert_eq!(read_text("under $1, max 5 cents").constraints.max_price.unwrap().to_string(), "0.05");
    }

    #[test]
    fn floors_names_and_bare_numbers_are_not_caps() {
        assert_eq!(read_text("apis over $1").constraints.max_price, None);
        assert_eq!(read_text("gpt4 usd prices").constraints.max_price, None);
        assert_eq!(read_text("top 10 tokens").constraints, Constraints::default());
    }

    #[test]
    fn networks_testnets_and_cheapest() {
        let r = read_text("mint an nft on Base Sepolia, cheapest");
        assert_eq!(r.constraints.network.as_deref(), Some("eip155:84532"));
        assert!(r.constraints.cheapest);
        assert_eq!(r.read_as, ["network Base Sepolia (eip155:84532, testnet)", "cheapest first"]);
        assert_eq!(r.rest.split_whitespace().collect::<Vec<_>>(), ["mint", "an", "nft", ","]);
        let r = read_text("sentiment, paid on solana, no testnets");
        assert_eq!(r.constraints.network.as_deref(), Some("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"));
        assert!(r.constraints.exclude_testnets);
        // A network named without a cue is a word of the need.
        assert_eq!(read_text("solana token prices").constraints.network, None);
        assert_eq!(read_text("on the base layer").constraints.network, None);
    }
}
