//! Constraints stated in a need's words (content/explore.md#constraints): a price cap
//! ("under $0.01", "at most 2 cents a call"), a network ("on base", "paid on solana"),
//! no test networks ("no testnets", "mainnet only") and "cheapest". Explore reads them
//! as the method's filters (and, for "cheapest", a stronger price preference), shows
//! them back ("read as: at most $0.01 per call") and ranks the rest of the words.
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
pub const CENT_UNITS: &[&str] = &["cent", "cents", "penny", "pennies"];
/// Numbers in words, each worth its place in the list: "zero" 0, "one" 1, … "nineteen" 19.
/// Read as an amount only before a unit ("five cents"), and as a cap only with a cue
/// before or after it ("at most five cents", "five cents or less").
pub const NUMBER_WORDS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
/// Tens in words, "twenty" 20 to "ninety" 90, alone or followed by "one" to "nine"
/// ("twenty five cents", "twenty-five cents").
pub const TENS_WORDS: &[&str] = &["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/// Words worth one before a unit ("under a cent", "at most a dollar").
pub const ONE_WORDS: &[&str] = &["a", "an"];
/// Words worth a half before a unit ("half a cent").
pub const HALF_WORDS: &[&str] = &["half a", "half an"];
/// Phrases that ask for no price at all: a cap of $0 ("weather for free"). A phrase is
/// read only when it stands apart ([`FREE_APART`]), and the lone word "free" only when
/// the word before it is not one of [`FREE_NOT_AFTER`] and the word after it not one of
/// [`FREE_NOT_BEFORE`].
pub const FREE: &[&str] =
    &["free", "for free", "free of charge", "at no cost", "no cost", "zero cost", "costs nothing", "cost nothing"];
/// The characters that may stand next to a [`FREE`] phrase (besides the text's ends): a
/// phrase joined to a word by anything else ("gluten-free", "free-text", "free_tier") is
/// part of that word.
pub const FREE_APART: &str = " \t\r\n,.;:!?()\"";
/// Words before "free" that make it mean "without" or deny it ("gluten free", "ad free",
/// "not free", "isn't free"): not a price.
pub const FREE_NOT_AFTER: &[&str] = &[
    "ad",
    "ads",
    "alcohol",
    "bug",
    "caffeine",
    "carbon",
    "cruelty",
    "dairy",
    "debt",
    "duty",
    "error",
    "fat",
    "feel",
    "gluten",
    "hands",
    "hassle",
    "interest",
    "kyc",
    "lactose",
    "latency",
    "lock",
    "login",
    "not",
    "registration",
    "rent",
    "risk",
    "royalty",
    "signup",
    "smoke",
    "spam",
    "stress",
    "sugar",
    "t",
    "tax",
    "toll",
    "tracking",
    "wait",
];
/// Words after "free" that give it another sense than a price ("free text", "free tier",
/// "free float"): not a price.
pub const FREE_NOT_BEFORE: &[&str] = &[
    "agent", "agents", "cash", "energy", "fall", "float", "flow", "form", "hand", "kick", "market", "memory", "plan",
    "plans", "port", "range", "software", "space", "speech", "spins", "style", "text", "throw", "tier", "tiers",
    "time", "trade", "trial", "trials", "version", "will",
];
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
pub const READ_MAX_PRICE: &str = "at most ${max_price} per call";
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

/// An amount at `at`: its USD value, how many tokens it takes, and whether its number is
/// in words ("five cents", "a dollar").
fn amount_at(tokens: &[Token], at: usize) -> Option<(Decimal, usize, bool)> {
    let t = |k: usize| tokens.get(at + k);
    let is = |k: usize, kind: Kind, text: Option<&str>| {
        t(k).is_some_and(|t| t.kind == kind && text.is_none_or(|x| t.text == x))
    };
    let unit =
        |k: usize, units: &[&str]| t(k).is_some_and(|u| u.kind == Kind::Letters && units.contains(&u.text.as_str()));
    // A number glued to letters before it ("gpt4") is part of a name, not an amount.
    let glued = |k: usize| {
        at + k > 0 && tokens[at + k - 1].kind == Kind::Letters && tokens[at + k - 1].end == tokens[at + k].start
    };
    if is(0, Kind::Symbol, Some("$")) && is(1, Kind::Number, None) {
        return Some((Decimal::parse(&t(1)?.text)?, 2, false));
    }
    if !is(0, Kind::Number, None) {
        let (number, n) = number_in_words(tokens, at)?;
        if unit(n, DOLLAR_UNITS) {
            return Some((Decimal::parse(&number)?, n + 1, true));
        }
        if unit(n, CENT_UNITS) {
            return Some((cents(&number)?, n + 1, true));
        }
        return None;
    }
    if glued(0) {
        return None;
    }
    let number = &t(0)?.text;
    if is(1, Kind::Symbol, Some("$")) || unit(1, DOLLAR_UNITS) {
        return Some((Decimal::parse(number)?, 2, false));
    }
    if is(1, Kind::Symbol, Some("¢")) || unit(1, CENT_UNITS) {
        return Some((cents(number)?, 2, false));
    }
    None
}

/// A number in words at `at` ([`NUMBER_WORDS`], [`TENS_WORDS`], [`ONE_WORDS`],
/// [`HALF_WORDS`]), as digits, and how many tokens it takes.
fn number_in_words(tokens: &[Token], at: usize) -> Option<(String, usize)> {
    let n = longest_at(tokens, at, HALF_WORDS);
    if n > 0 {
        return Some(("0.5".to_owned(), n));
    }
    let word = |k: usize| tokens.get(at + k).filter(|t| t.kind == Kind::Letters).map(|t| t.text.as_str());
    let first = word(0)?;
    if ONE_WORDS.contains(&first) {
        return Some(("1".to_owned(), 1));
    }
    if let Some(tens) = TENS_WORDS.iter().position(|w| *w == first) {
        let tens = 20 + 10 * tens;
        let ones = word(1).and_then(|w| NUMBER_WORDS.iter().position(|x| *x == w)).filter(|n| (1..=9).contains(n));
        return Some(match ones {
            Some(ones) => ((tens + ones).to_string(), 2),
            None => (tens.to_string(), 1),
        });
    }
    NUMBER_WORDS.iter().position(|w| *w == first).map(|n| (n.to_string(), 1))
}

/// Whether the [`FREE`] phrase of `n` tokens at `at` is read as a price: it stands apart
/// ([`FREE_APART`]), and the lone word "free" has no word of [`FREE_NOT_AFTER`] before it
/// and none of [`FREE_NOT_BEFORE`] after it.
fn free_at(chars: &[char], tokens: &[Token], at: usize, n: usize) -> bool {
    let apart = |c: Option<&char>| c.is_none_or(|c| FREE_APART.contains(*c));
    let (start, end) = (tokens[at].start, tokens[at + n - 1].end);
    if !apart(start.checked_sub(1).and_then(|s| chars.get(s))) || !apart(chars.get(end)) {
        return false;
    }
    let word_in = |t: Option<&Token>, words: &[&str]| {
        t.is_some_and(|t| t.kind == Kind::Letters && words.contains(&t.text.as_str()))
    };
    n > 1
        || !(word_in(at.checked_sub(1).and_then(|k| tokens.get(k)), FREE_NOT_AFTER)
            || word_in(tokens.get(at + 1), FREE_NOT_BEFORE))
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
        if let Some((amount, n, in_words)) = amount_at(&tokens, i + cue) {
            let floor = cue == 0 && longest_before(&tokens, i, FLOOR_BEFORE) > 0;
            let mut end = i + cue + n;
            let after = longest_at(&tokens, end, CAP_AFTER);
            end += after;
            let per = PER.iter().any(|p| phrase_at(&tokens, end, p) == 1)
                && tokens.get(end + 1).is_some_and(|t| t.kind == Kind::Letters);
            if per {
                end += 2;
            }
            // An amount in words is a cap only beside a cue ("under a cent", "five cents
            // a call"; a cue read with the amount before counts: "under $1, max ten
            // cents"): "convert a dollar to yen" states no price.
            let cued = !in_words || cue > 0 || longest_before(&tokens, i, CAP_BEFORE) > 0 || after > 0 || per;
            if !floor && cued {
                take(i, end, &mut blank, &mut phrases);
                if c.max_price.is_none_or(|m| amount.cmp_exact(&m).is_lt()) {
                    c.max_price = Some(amount);
                }
                i = end;
                continue;
            }
        }
        // No price at all: a cap of $0.
        let n = longest_at(&tokens, i, FREE);
        if n > 0 && free_at(&chars, &tokens, i, n) {
            take(i, i + n, &mut blank, &mut phrases);
            let zero = Decimal::parse("0").expect("0 is a decimal");
            if c.max_price.is_none_or(|m| zero.cmp_exact(&m).is_lt()) {
                c.max_price = Some(zero);
            }
            i += n;
            continue;
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
        assert_eq!(r.read_as, ["at most $0.01 per call"]);
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

    fn cap(text: &str) -> Option<String> {
        read_text(text).constraints.max_price.map(|d| d.to_string())
    }

    #[test]
    fn prices_in_words() {
        assert_eq!(cap("twitter search under one cent").as_deref(), Some("0.01"));
        assert_eq!(cap("twitter search under a cent").as_deref(), Some("0.01"));
        // "less than" is read as "at most", as with digits: the method's cap is inclusive.
        assert_eq!(cap("less than one cent").as_deref(), Some("0.01"));
        assert_eq!(cap("funding rates at most five cents").as_deref(), Some("0.05"));
        assert_eq!(cap("no more than twenty-five cents per call").as_deref(), Some("0.25"));
        assert_eq!(cap("under twenty cents").as_deref(), Some("0.2"));
        assert_eq!(cap("under nineteen cents").as_deref(), Some("0.19"));
        assert_eq!(cap("below half a cent").as_deref(), Some("0.005"));
        assert_eq!(cap("at most a dollar").as_deref(), Some("1"));
        assert_eq!(cap("up to a penny").as_deref(), Some("0.01"));
        assert_eq!(cap("under 3 pennies").as_deref(), Some("0.03"));
        assert_eq!(cap("under zero cents").as_deref(), Some("0"));
        // A cue after the amount will do.
        assert_eq!(cap("two dollars or less").as_deref(), Some("2"));
        assert_eq!(cap("five cents a call").as_deref(), Some("0.05"));
        // The lowest of a cap in digits and one in words.
        assert_eq!(cap("under $1, at most ten cents").as_deref(), Some("0.1"));
        let r = read_text("image generation under a cent per image");
        assert_eq!(r.read_as, ["at most $0.01 per call"]);
        assert_eq!(r.phrases, ["under a cent per image"]);
        assert_eq!(r.rest.split_whitespace().collect::<Vec<_>>(), ["image", "generation"]);
    }

    #[test]
    fn numbers_in_words_without_a_cue_or_a_unit_are_words() {
        assert_eq!(cap("convert a dollar to yen"), None);
        assert_eq!(cap("one cent coins"), None);
        assert_eq!(cap("more than a cent"), None);
        assert_eq!(cap("under one"), None);
        assert_eq!(cap("under a hundred cents"), None, "no hundreds");
        assert_eq!(cap("a penny stock screener"), None);
        assert_eq!(read_text("top ten tokens under a minute").constraints, Constraints::default());
    }

    #[test]
    fn free_is_a_cap_of_nothing() {
        assert_eq!(cap("free").as_deref(), Some("0"));
        assert_eq!(cap("free weather api").as_deref(), Some("0"));
        let r = read_text("weather api for free");
        assert_eq!(r.read_as, ["at most $0 per call"]);
        assert_eq!(r.phrases, ["for free"]);
        assert_eq!(r.rest.split_whitespace().collect::<Vec<_>>(), ["weather", "api"]);
        assert_eq!(cap("news, free of charge.").as_deref(), Some("0"));
        assert_eq!(cap("translation at no cost").as_deref(), Some("0"));
        assert_eq!(cap("a search that costs nothing").as_deref(), Some("0"));
        assert_eq!(cap("under $1 or free").as_deref(), Some("0"));
        // Not a price: joined to another word, "without" something, or another sense.
        for text in [
            "gluten-free recipes",
            "gluten free recipes",
            "free-text search",
            "free_tier",
            "free text search",
            "llm with a free tier",
            "ad free video",
            "it is not free",
            "it isn't free",
            "token free float",
            "freedom of speech",
            "freelance",
        ] {
            assert_eq!(cap(text), None, "{text}");
        }
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
