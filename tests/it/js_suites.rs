//! The JavaScript suites, run from `cargo test` so that one command runs everything:
//! the composer's unit tests (Node's test runner) and the end-to-end browser tests
//! (headless Chromium via playwright-core, accessibility by axe-core; .ci/run installs
//! all three). Without Node, Chromium or the npm packages they skip, saying so
//! (common::prerequisites); `X402DIR_REQUIRE_BROWSER=1` makes that a failure.

use std::process::Command;

use crate::common::prerequisites::{self, Need};
use crate::common::repo_root;

fn node_test(dir: &str, envs: &[(&str, &std::ffi::OsStr)]) -> String {
    let out = Command::new("node")
        .args(["--test", "--test-reporter=spec", dir])
        .env("X402DIR_BIN", env!("CARGO_BIN_EXE_x402dir"))
        .envs(envs.iter().copied())
        .current_dir(repo_root())
        .output()
        .expect("node runs (checked by prerequisites::ready)");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "node --test {dir} failed:\n{text}");
    text
}

#[test]
fn composer_unit_tests_pass() {
    if !prerequisites::ready("Node suite tests/js/", &[Need::Node]) {
        return;
    }
    let report = node_test("tests/js/", &[]);
    assert!(report.contains("pass "), "{report}");
}

#[test]
fn browser_end_to_end_tests_pass() {
    if !prerequisites::ready("browser suite tests/e2e/", &[Need::Node, Need::Chromium, Need::NpmPackages]) {
        return;
    }
    // The Chromium the check found, whether $CHROMIUM or the one on PATH.
    let chromium = prerequisites::chromium().expect("checked by prerequisites::ready");
    let report = node_test("tests/e2e/", &[("CHROMIUM", chromium.as_os_str())]);
    // Every browser test ran: the site's, explore's, the probe filter's and accessibility's.
    let passed = report.lines().find_map(|l| l.trim_start_matches(['ℹ', ' ']).strip_prefix("pass ")).unwrap_or("0");
    assert!(passed.trim().parse::<u32>().is_ok_and(|n| n >= 32), "{report}");
    assert!(report.contains("fail 0"), "{report}");
}
