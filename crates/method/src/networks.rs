//! The networks a snapshot's listings accept payment on, with the names people know them
//! by, and how a network filter's text is read (content/method.md#filters).

use serde::Serialize;

use std::collections::BTreeMap;

use super::assets::{AssetTable, Network};
use super::index::Index;
use super::query::FilterError;

/// A network a filter can name: every network of the asset table, and every other
/// network a listing of the snapshot names (by its id as listed, `name` the same).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KnownNetwork {
    /// The CAIP-2 id (or, for a network the table lacks, the id as listed).
    pub id: String,
    /// The name shown to people ("Base Sepolia").
    pub name: String,
    /// The v1 name (`base-sepolia`), when the table has one.
    pub(crate) legacy: Option<String>,
    pub testnet: bool,
    /// How many ranked resources of the snapshot accept payment on it.
    pub resources: usize,
}

impl KnownNetwork {
    /// A network of the asset table, named by `resources` of the snapshot.
    pub fn in_table(n: &Network, resources: usize) -> KnownNetwork {
        KnownNetwork {
            id: n.caip2.clone(),
            name: n.name.clone(),
            legacy: Some(n.legacy.clone()),
            testnet: n.testnet,
            resources,
        }
    }

    /// A network the table lacks, known only by the id listings give it.
    pub(crate) fn listed_only(id: &str, resources: usize) -> KnownNetwork {
        KnownNetwork { id: id.to_owned(), name: id.to_owned(), legacy: None, testnet: false, resources }
    }

    /// How the network is described to people: `Base Sepolia (eip155:84532, testnet)`.
    pub fn described(&self) -> String {
        match (self.name == self.id, self.testnet) {
            (true, _) => self.id.clone(),
            (false, false) => format!("{} ({})", self.name, self.id),
            (false, true) => format!("{} ({}, testnet)", self.name, self.id),
        }
    }
}

/// The networks of `index`: the table's in its order, then the snapshot's others in
/// byte order of their ids.
pub fn known(index: &Index, assets: &AssetTable) -> Vec<KnownNetwork> {
    // How many resources name each network, in one pass (an entry lists each once).
    let mut resources: BTreeMap<&str, usize> = BTreeMap::new();
    for id in index.entries.iter().flat_map(|e| &e.networks) {
        *resources.entry(id.as_str()).or_default() += 1;
    }
    let mut known: Vec<KnownNetwork> = assets
        .networks
        .iter()
        .map(|n| KnownNetwork::in_table(n, resources.remove(n.caip2.as_str()).unwrap_or(0)))
        .collect();
    // What is left names networks the table lacks, already in byte order.
    known.extend(resources.into_iter().map(|(id, count)| KnownNetwork::listed_only(id, count)));
    known
}

/// The form two spellings of one network share: ASCII letters lower-cased, and each run
/// of spaces, tabs, line ends, `_` and `-` made one `-`, none at either end. So "Base
/// Sepolia", "base_sepolia" and "BASE-SEPOLIA" are one.
pub(crate) fn spelling_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c' | '_' | '-') {
            gap = true;
            continue;
        }
        if gap && !key.is_empty() {
            key.push('-');
        }
        gap = false;
        key.push(c.to_ascii_lowercase());
    }
    key
}

/// The network `text` names: its id exactly, else the first whose id, legacy name or
/// name has the same [`spelling_key`].
pub fn resolve<'a>(known: &'a [KnownNetwork], text: &str) -> Option<&'a KnownNetwork> {
    if let Some(n) = known.iter().find(|n| n.id == text) {
        return Some(n);
    }
    let key = spelling_key(text);
    known.iter().find(|n| {
        [Some(&n.id), n.legacy.as_ref(), Some(&n.name)].into_iter().flatten().any(|form| spelling_key(form) == key)
    })
}

/// The CAIP-2 id a network filter's text names in `index`, or the error that lists the
/// snapshot's networks.
pub(crate) fn resolve_filter(index: &Index, assets: &AssetTable, text: &str) -> Result<String, FilterError> {
    let known = known(index, assets);
    match resolve(&known, text) {
        Some(n) => Ok(n.id.clone()),
        None => Err(FilterError::UnknownNetwork {
            given: text.to_owned(),
            known: known.iter().filter(|n| n.resources > 0).map(KnownNetwork::described).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<KnownNetwork> {
        let assets = AssetTable::embedded();
        let listed = KnownNetwork::listed_only("eip155:2741", 1);
        assets.networks.iter().map(|n| KnownNetwork::in_table(n, 1)).chain([listed]).collect()
    }

    #[test]
    fn names_legacy_names_and_ids_in_any_case_resolve() {
        let known = table();
        let id = |t: &str| resolve(&known, t).map(|n| n.id.as_str());
        for text in ["Base", "base", "BASE", "eip155:8453", "EIP155:8453"] {
            assert_eq!(id(text), Some("eip155:8453"), "{text:?}");
        }
        for text in ["Base Sepolia", "base-sepolia", "base_sepolia", "BASE  SEPOLIA", "eip155:84532"] {
            assert_eq!(id(text), Some("eip155:84532"), "{text:?}");
        }
        assert_eq!(id("solana"), Some("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"));
        assert_eq!(id("Solana Devnet"), Some("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"));
        assert_eq!(id("eip155:2741"), Some("eip155:2741"));
        for unknown in ["basee", "bas", "eip155:999", "sepolia", "base sepolia testnet"] {
            assert_eq!(id(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn spelling_keys_fold_case_and_gaps_only() {
        assert_eq!(spelling_key("  Base \t_Sepolia- "), "base-sepolia");
        assert_eq!(spelling_key("Solana:EtWT"), "solana:etwt");
        // Only ASCII letters fold, as the composer folds them.
        assert_eq!(spelling_key("ÄB"), "Äb");
    }

    #[test]
    fn an_unknown_network_is_answered_with_the_snapshots_networks() {
        let e = FilterError::UnknownNetwork {
            given: "basee".into(),
            known: table()[..2].iter().map(KnownNetwork::described).collect(),
        };
        assert_eq!(
            e.to_string(),
            "unknown network \"basee\": the networks in this snapshot are Base (eip155:8453), Base Sepolia \
             (eip155:84532, testnet); give a name, legacy name or CAIP-2 id"
        );
    }
}
