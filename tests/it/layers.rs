//! The library's layers (README, "Layout"): each module uses only its own layer and
//! those below it, and no two modules use each other. Read off the source, so that a
//! `use` that reaches up fails here rather than in a reviewer's reading.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

use crate::common::repo_root;

/// A top-level module's layer: lower numbers are further down.
fn layer(top: &str) -> Option<u8> {
    Some(match top {
        "lib" | "error" | "config" | "hash" | "timings" | "Error" => 0,
        "catalogue" => 1,
        "method" => 2,
        "explore" => 3,
        "site" | "mcp" | "serve" => 4,
        _ => return None,
    })
}

/// Every library source file as its module path (`method::names`), with its text less
/// its unit tests (tests may reach anywhere).
fn library_modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, src, out);
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let rel = rel.to_str().unwrap().replace('\\', "/");
            if rel == "main" || rel.starts_with("cmd/") {
                continue; // the command line sits on top of every layer
            }
            let module = rel.trim_end_matches("/mod").replace('/', "::");
            let text = std::fs::read_to_string(&path).unwrap();
            let text = text.split("#[cfg(test)]").next().unwrap().to_owned();
            out.insert(module, text);
        }
    }
    let src = repo_root().join("src");
    let mut out = BTreeMap::new();
    walk(&src, &src, &mut out);
    out
}

/// The modules each module names (`crate::a::b`, `super::c`), resolved to the longest
/// module path that exists.
fn edges(modules: &BTreeMap<String, String>) -> BTreeSet<(String, String)> {
    let crate_path = Regex::new(r"crate::((?:\w+::)*\w+)").unwrap();
    let super_path = Regex::new(r"\bsuper::(\w+)").unwrap();
    let resolve = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len()).rev().map(|k| parts[..k].join("::")).find(|m| modules.contains_key(m))
    };
    let mut out = BTreeSet::new();
    for (module, text) in modules {
        let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
        let named =
            crate_path.captures_iter(text).map(|c| c[1].to_owned()).chain(super_path.captures_iter(text).map(|c| {
                if parent.is_empty() {
                    c[1].to_owned()
                } else {
                    format!("{parent}::{}", &c[1])
                }
            }));
        for target in named.filter_map(|t| resolve(&t)) {
            let nested = target.starts_with(&format!("{module}::")) || module.starts_with(&format!("{target}::"));
            if &target != module && !nested {
                out.insert((module.clone(), target));
            }
        }
    }
    out
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let modules = library_modules();
    assert!(modules.contains_key("method::names") && modules.contains_key("site::api::method"), "source walked");
    let mut upward = Vec::new();
    for (from, to) in edges(&modules) {
        let top = |m: &str| m.split("::").next().unwrap().to_owned();
        let (a, b) = (layer(&top(&from)), layer(&top(&to)));
        assert!(a.is_some() && b.is_some(), "a module of no known layer: {from} or {to}; add it to layer()");
        if a < b {
            upward.push(format!("{from} uses {to}"));
        }
    }
    assert!(upward.is_empty(), "uses that reach up a layer:\n{}", upward.join("\n"));
}

#[test]
fn no_two_modules_use_each_other() {
    let edges = edges(&library_modules());
    let mutual: Vec<String> = edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{a} <-> {b}"))
        .collect();
    assert!(mutual.is_empty(), "modules that use each other:\n{}", mutual.join("\n"));
}

/// The checks see real edges: the method's answer names the view, and a planted
/// upward edge would be caught.
#[test]
fn the_checks_see_the_edges() {
    let modules = library_modules();
    let found = edges(&modules);
    assert!(found.contains(&("method::answer".to_owned(), "method::view".to_owned())));
    assert!(found.contains(&("site::feed".to_owned(), "method::view".to_owned())));
    let mut planted = modules.clone();
    planted.insert("catalogue::planted".to_owned(), "use crate::site::pages::Chrome;".to_owned());
    assert!(edges(&planted).contains(&("catalogue::planted".to_owned(), "site::pages".to_owned())));
}
