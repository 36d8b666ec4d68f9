//! The JavaScript suites, run from `cargo test` so that one command runs everything:
//! the composer's unit tests (Node's test runner) and the end-to-end browser tests
//! (headless Chromium via playwright-core, accessibility by axe-core; .ci/run installs
//! all three).

use std::process::Command;

use crate::common::repo_root;

fn node_test(dir: &str) -> String {
    let out = Command::new("node")
        .args(["--test", "--test-reporter=spec", dir])
        .env("X402DIR_BIN", env!("CARGO_BIN_EXE_x402dir"))
        .current_dir(repo_root())
        .output()
        .expect("node runs (Node 20 is on every machine of this project)");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "node --test {dir} failed:\n{text}");
    text
}

#[test]
fn composer_unit_tests_pass() {
    let report = node_test("tests/js/");
    assert!(report.contains("pass "), "{report}");
}

#[test]
fn browser_end_to_end_tests_pass() {
    let chromium = std::path::Path::new("/usr/bin/chromium");
    let modules = ["playwright-core", "axe-core"].map(|m| repo_root().join("node_modules").join(m));
    assert!(
        chromium.exists() && modules.iter().all(|m| m.exists()),
        "the browser tests need Debian's chromium, and playwright-core and axe-core from npm: apt-get install chromium && npm ci (.ci/run does both)"
    );
    let report = node_test("tests/e2e/");
    // Every browser test ran: the method's eight, explore's two and accessibility's nine.
    let passed = report.lines().find_map(|l| l.trim_start_matches(['ℹ', ' ']).strip_prefix("pass ")).unwrap_or("0");
    assert!(passed.trim().parse::<u32>().is_ok_and(|n| n >= 19), "{report}");
    assert!(report.contains("fail 0"), "{report}");
}
