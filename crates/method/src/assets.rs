//! The versioned asset table (content/method/assets.txt): network aliases and the
//! USD stablecoins whose atomic amounts read as a USD price (content/method.md#filters).

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use serde::{Serialize, Serializer};

use catalogue::error::Error;

/// Most decimal places accepted in a price or kept in the table.
pub const MAX_DECIMALS: u32 = 18;
/// Most digits, before and after the point together, accepted in a price.
pub const MAX_DIGITS: usize = 30;

const TABLE_TEXT: &str = include_str!("../../../content/method/assets.txt");

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    pub legacy: String,
    pub caip2: String,
    pub(crate) testnet: bool,
    /// What people call it ("Base Sepolia"), shown on pages and accepted by the filter.
    pub(crate) name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stablecoin {
    pub(crate) caip2: String,
    /// Lower-cased for EVM (hex addresses are case-insensitive), as written otherwise.
    pub(crate) asset_key: String,
    pub(crate) decimals: u32,
    pub(crate) symbol: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetTable {
    pub version: String,
    pub networks: Vec<Network>,
    pub(crate) stablecoins: Vec<Stablecoin>,
}

impl AssetTable {
    /// The table compiled into this binary.
    pub fn embedded() -> &'static AssetTable {
        static TABLE: OnceLock<AssetTable> = OnceLock::new();
        TABLE.get_or_init(|| AssetTable::parse(TABLE_TEXT).expect("content/method/assets.txt is valid"))
    }

    pub(crate) fn parse(text: &str) -> Result<AssetTable, Error> {
        let mut version = None;
        let mut networks = Vec::new();
        let mut stablecoins = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| Error::content("content/method/assets.txt", n + 1, why);
            if let Some(v) = line.strip_prefix("version = ") {
                version = Some(v.trim().to_owned());
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            match cols.as_slice() {
                ["network", legacy, caip2, kind, name] => networks.push(Network {
                    legacy: legacy.to_string(),
                    caip2: caip2.to_string(),
                    testnet: match *kind {
                        "mainnet" => false,
                        "testnet" => true,
                        _ => return Err(bad("network kind must be mainnet or testnet")),
                    },
                    name: name.to_string(),
                }),
                ["usd", caip2, asset, decimals, symbol] => {
                    let decimals: u32 = decimals.parse().map_err(|_| bad("decimals must be a whole number"))?;
                    if decimals > MAX_DECIMALS {
                        return Err(bad("decimals above 18"));
                    }
                    stablecoins.push(Stablecoin {
                        caip2: caip2.to_string(),
                        asset_key: asset_key(caip2, asset),
                        decimals,
                        symbol: symbol.to_string(),
                    })
                }
                _ => return Err(bad("expected a `network` or `usd` line with tab-separated columns")),
            }
        }
        let version = version.ok_or_else(|| Error::content("content/method/assets.txt", 0, "no `version = ` line"))?;
        Ok(AssetTable { version, networks, stablecoins })
    }

    /// The CAIP-2 id for a network name as the catalogue gives it: legacy names are
    /// mapped through the table, anything else is kept whole.
    pub fn canonical_network<'a>(&'a self, name: &'a str) -> &'a str {
        self.networks.iter().find(|n| n.legacy == name).map(|n| n.caip2.as_str()).unwrap_or(name)
    }

    /// The name people know a network by ("Base Sepolia"), when the table has it.
    pub fn network_name(&self, caip2: &str) -> Option<&str> {
        self.networks.iter().find(|n| n.caip2 == caip2).map(|n| n.name.as_str())
    }

    pub fn is_testnet(&self, caip2: &str) -> bool {
        self.networks.iter().any(|n| n.caip2 == caip2 && n.testnet)
    }

    /// The stablecoin an accept pays in, if its asset is a known USD stablecoin on that
    /// network. `asset` may be a bare address or a CAIP-19 id (`eip155:8453/erc20:0x…`),
    /// whose chain must then agree with `caip2`.
    pub(crate) fn usd_stablecoin(&self, caip2: &str, asset: &str) -> Option<&Stablecoin> {
        let bare = match asset.split_once('/') {
            Some((chain, rest)) => {
                if chain != caip2 {
                    return None;
                }
                rest.split_once(':').map(|(_, addr)| addr)?
            }
            None => asset,
        };
        let key = asset_key(caip2, bare);
        self.stablecoins.iter().find(|s| s.caip2 == caip2 && s.asset_key == key)
    }
}

fn asset_key(caip2: &str, asset: &str) -> String {
    if caip2.starts_with("eip155:") {
        asset.to_ascii_lowercase()
    } else {
        asset.to_owned()
    }
}

/// An exact non-negative decimal: `units / 10^scale`. Used for prices so that no
/// float ever decides whether a resource is inside a price filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decimal {
    pub(crate) units: u128,
    pub(crate) scale: u32,
}

impl Decimal {
    pub fn new(units: u128, scale: u32) -> Decimal {
        Decimal { units, scale }
    }

    /// Parses plain decimal text: digits, optionally one `.` and more digits. No sign,
    /// no exponent, no spaces, at most 18 decimal places and 30 digits in all.
    pub fn parse(text: &str) -> Option<Decimal> {
        let (int, frac) = match text.split_once('.') {
            Some((i, f)) => (i, f),
            None => (text, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if text.ends_with('.') || text.starts_with('.') && frac.is_empty() {
            return None;
        }
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(int)
            || !all_digits(frac)
            || frac.len() > MAX_DECIMALS as usize
            || int.len() + frac.len() > MAX_DIGITS
        {
            return None;
        }
        let units: u128 = format!("{int}{frac}").trim_start_matches('0').parse().unwrap_or(0);
        Some(Decimal { units, scale: frac.len() as u32 })
    }

    /// Exact comparison of two decimals of any scale.
    pub fn cmp_exact(&self, other: &Decimal) -> Ordering {
        // Scale the side with fewer decimals up; if that overflows, it is the larger.
        let pow = |n: u32| 10u128.checked_pow(n);
        match self.scale.cmp(&other.scale) {
            Ordering::Equal => self.units.cmp(&other.units),
            Ordering::Less => match pow(other.scale - self.scale).and_then(|p| self.units.checked_mul(p)) {
                Some(scaled) => scaled.cmp(&other.units),
                None => Ordering::Greater,
            },
            Ordering::Greater => match pow(self.scale - other.scale).and_then(|p| other.units.checked_mul(p)) {
                Some(scaled) => self.units.cmp(&scaled),
                None => Ordering::Less,
            },
        }
    }
}

impl fmt::Display for Decimal {
    /// Shortest exact form: no trailing zeros, no trailing point (`0.01`, `3`, `1478`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.units.to_string();
        let scale = self.scale as usize;
        let (int, frac) = if digits.len() > scale {
            let (i, fr) = digits.split_at(digits.len() - scale);
            (i.to_owned(), fr.to_owned())
        } else {
            ("0".to_owned(), format!("{digits:0>scale$}"))
        };
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            write!(f, "{int}")
        } else {
            write!(f, "{int}.{frac}")
        }
    }
}

impl Serialize for Decimal {
    /// Prices travel as exact decimal strings, never as floats.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_table_parses_and_knows_base_usdc() {
        let t = AssetTable::embedded();
        assert_eq!(t.version, "1.1.0");
        assert_eq!(t.canonical_network("base"), "eip155:8453");
        assert_eq!(t.network_name("eip155:84532"), Some("Base Sepolia"));
        assert_eq!(t.network_name("eip155:2741"), None);
        assert_eq!(t.canonical_network("eip155:8453"), "eip155:8453");
        assert_eq!(t.canonical_network("some-new-chain"), "some-new-chain");
        let usdc = t.usd_stablecoin("eip155:8453", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913").unwrap();
        assert_eq!(usdc.decimals, 6);
        // Mixed-case EVM address and the CAIP-19 form name the same token.
        assert!(t.usd_stablecoin("eip155:8453", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913").is_some());
        assert!(t
            .usd_stablecoin("eip155:8453", "eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")
            .is_some());
        // A CAIP-19 id naming another chain is not that network's USDC.
        assert!(t.usd_stablecoin("eip155:8453", "eip155:1/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913").is_none());
        // Base Sepolia test USDC is not a dollar.
        assert!(t.usd_stablecoin("eip155:84532", "0x036CbD53842c5426634e7929541eC2318f3dCF7e").is_none());
        assert!(t.is_testnet("eip155:84532"));
        // Solana mints are case-sensitive base58.
        assert!(t
            .usd_stablecoin("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "epjfwdd5aufqssqem2qn1xzybapc8g4wggkzwytdt1v")
            .is_none());
    }

    #[test]
    fn decimal_parse_accepts_plain_decimals_only() {
        assert_eq!(Decimal::parse("0.01"), Some(Decimal::new(1, 2)));
        assert_eq!(Decimal::parse("5"), Some(Decimal::new(5, 0)));
        assert_eq!(Decimal::parse(".5"), Some(Decimal::new(5, 1)));
        for bad in
            ["", ".", "5.", "-1", "+1", "1e-3", "NaN", "inf", "0x10", " 1", "1,5", "1.2.3", "0.0000000000000000001"]
        {
            assert_eq!(Decimal::parse(bad), None, "{bad:?} accepted");
        }
    }

    #[test]
    fn decimal_comparison_is_exact_across_scales() {
        let d = |s: &str| Decimal::parse(s).unwrap();
        assert_eq!(Decimal::new(10_000, 6).cmp_exact(&d("0.01")), Ordering::Equal);
        assert_eq!(Decimal::new(10_001, 6).cmp_exact(&d("0.01")), Ordering::Greater);
        assert_eq!(d("0.009999").cmp_exact(&d("0.01")), Ordering::Less);
        // Overflow while scaling means the scaled side is the larger one.
        let huge = Decimal::new(u128::MAX, 0);
        assert_eq!(huge.cmp_exact(&d("0.5")), Ordering::Greater);
        assert_eq!(d("0.5").cmp_exact(&huge), Ordering::Less);
    }

    #[test]
    fn decimal_display_is_shortest_exact() {
        assert_eq!(Decimal::new(10_000, 6).to_string(), "0.01");
        assert_eq!(Decimal::new(1_478_000_000, 6).to_string(), "1478");
        assert_eq!(Decimal::new(0, 6).to_string(), "0");
        assert_eq!(Decimal::new(5, 0).to_string(), "5");
        assert_eq!(Decimal::new(123, 2).to_string(), "1.23");
    }
}
