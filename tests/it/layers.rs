//! The layers (docs/layout.md): a crate per layer, each listing only crates of layers
//! below its own, so the compiler refuses a `use` that reaches up. What the compiler
//! cannot see is checked here: that the manifests keep that order (a dependency added
//! the wrong way round between two crates that do not yet form a cycle), and that no
//! two modules of one crate use each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

use crate::common::repo_root;

/// Each crate's layer: a crate may depend only on crates of a lower number.
const LAYERS: [(&str, u8); 10] = [
    ("catalogue", 0),
    ("method", 1),
    ("explore", 2),
    ("probe", 2),
    ("site", 3),
    ("serve", 3),
    ("mcp", 3),
    ("publish", 4),
    ("xtask", 5),
    ("x402dir", 6),
];

fn layer(name: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// Each workspace crate's folder, by package name.
fn crates() -> BTreeMap<String, std::path::PathBuf> {
    let mut out = BTreeMap::new();
    out.insert("x402dir".to_owned(), repo_root());
    for entry in std::fs::read_dir(repo_root().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap().parse().unwrap();
        let name = manifest["package"]["name"].as_str().unwrap().to_owned();
        out.insert(name, dir);
    }
    out
}

/// The workspace crates a manifest lists as dependencies (not dev-dependencies: a test
/// may reach anywhere).
fn internal_dependencies(dir: &Path, workspace: &BTreeMap<String, std::path::PathBuf>) -> Vec<String> {
    let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap().parse().unwrap();
    let Some(deps) = manifest.get("dependencies").and_then(|d| d.as_table()) else { return Vec::new() };
    deps.keys().filter(|k| workspace.contains_key(*k)).cloned().collect()
}

#[test]
fn each_crate_lists_only_crates_of_lower_layers() {
    let workspace = crates();
    assert!(workspace.len() >= 9, "every crate found: {:?}", workspace.keys());
    let mut upward = Vec::new();
    for (name, dir) in &workspace {
        let own = layer(name).unwrap_or_else(|| panic!("crate {name} has no layer: add it to LAYERS"));
        for dep in internal_dependencies(dir, &workspace) {
            if layer(&dep).is_none_or(|l| l >= own) {
                upward.push(format!("{name} depends on {dep}"));
            }
        }
    }
    assert!(upward.is_empty(), "dependencies that reach up or across a layer:\n{}", upward.join("\n"));
}

/// Every source file of one crate as its module path (`api::method`), with its text less
/// its unit tests.
fn modules(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, src, out);
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let rel = rel.to_str().unwrap().replace('\\', "/");
            let module = match rel.as_str() {
                "lib" | "main" => String::new(),
                other => other.trim_end_matches("/mod").replace('/', "::"),
            };
            let text = std::fs::read_to_string(&path).unwrap();
            out.insert(module, text.split("#[cfg(test)]").next().unwrap().to_owned());
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
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
            let nested = module.is_empty()
                || target.starts_with(&format!("{module}::"))
                || module.starts_with(&format!("{target}::"));
            if &target != module && !nested {
                out.insert((module.clone(), target));
            }
        }
    }
    out
}

#[test]
fn no_two_modules_of_a_crate_use_each_other() {
    let mut mutual = Vec::new();
    for (name, dir) in crates() {
        let edges = edges(&modules(&dir.join("src")));
        for (a, b) in &edges {
            if a < b && edges.contains(&(b.clone(), a.clone())) {
                mutual.push(format!("{name}: {a} <-> {b}"));
            }
        }
    }
    assert!(mutual.is_empty(), "modules that use each other:\n{}", mutual.join("\n"));
}

/// The checks see real edges and would catch planted ones.
#[test]
fn the_checks_see_the_edges() {
    let method = modules(&repo_root().join("crates/method/src"));
    assert!(edges(&method).contains(&("answer".to_owned(), "view".to_owned())));
    let mut planted = method.clone();
    planted.insert("view".to_owned(), "use super::answer::Answer;".to_owned());
    let found = edges(&planted);
    assert!(
        found.contains(&("view".to_owned(), "answer".to_owned()))
            && found.contains(&("answer".to_owned(), "view".to_owned()))
    );
    assert_eq!(layer("method").zip(layer("site")).map(|(a, b)| a < b), Some(true));
    assert!(internal_dependencies(&repo_root().join("crates/site"), &crates()).contains(&"method".to_owned()));
}
