//! The weekly publication (issue 21): the workflows pass actionlint, the weekly workflow
//! runs tools/weekly's steps in the order the pipeline needs, and tools/weekly-dry-run
//! replays those steps against a loopback catalogue serving a real dump, both ways: a
//! complete walk ends in a new dated snapshot, its lock line, one pushed commit and the new
//! folder deployed; a walk that loses a page for good commits nothing and leaves the
//! deployed site as it was.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::prerequisites::{self, Need};
use crate::common::{repo_root, temp_dir};

const WORKFLOWS: &str = ".github/workflows";

fn text(rel: &str) -> String {
    fs::read_to_string(repo_root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The `tools/weekly STEP` lines of a workflow, in order.
fn weekly_steps(workflow: &str) -> Vec<String> {
    workflow
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run:").map(str::trim))
        .filter_map(|cmd| cmd.strip_prefix("tools/weekly "))
        .map(|step| step.trim().to_owned())
        .collect()
}

#[test]
fn the_weekly_workflow_walks_probes_builds_tests_commits_then_deploys() {
    let weekly = text(".github/workflows/weekly.yml");
    // The probe before the build: a folder's probe file is among its locked answers.
    assert_eq!(weekly_steps(&weekly), ["walk", "probe", "build", "test", "commit", "deploy"]);
    // Scheduled weekly (minute, hour, any day of month, any month, one day of the week),
    // and by hand.
    let cron = weekly.lines().find_map(|l| l.trim().strip_prefix("- cron:")).expect("a cron schedule");
    let fields: Vec<&str> = cron.trim().trim_matches('"').split_whitespace().collect();
    assert_eq!(fields.len(), 5, "{cron}");
    assert_eq!(&fields[2..4], ["*", "*"], "weekly, not monthly: {cron}");
    assert!(fields[4].parse::<u8>().is_ok_and(|d| d < 7), "one day of the week: {cron}");
    assert!(weekly.contains("workflow_dispatch:"));
    assert!(weekly.contains("contents: write"), "the commit step pushes");
    // The deploy's secrets, and the docs that name them.
    for secret in ["NETLIFY_AUTH_TOKEN", "NETLIFY_SITE_ID"] {
        assert!(weekly.contains(&format!("{secret}: ${{{{ secrets.{secret} }}}}")), "{secret}");
        assert!(text("docs/deploy.md").contains(secret), "docs/deploy.md names {secret}");
        assert!(text("README.md").contains(secret), "README names {secret}");
    }
    let pipeline = text("tools/weekly");
    assert!(pipeline.contains("netlify deploy --prod --dir public"));
    // CI: .ci/run on every push and pull request.
    let ci = text(".github/workflows/ci.yml");
    assert!(ci.contains("push:") && ci.contains("pull_request:"));
    assert!(ci.lines().any(|l| l.trim() == "run: bash .ci/run"));
}

/// actionlint on the named workflow files (as `actionlint` with no argument would find
/// them in the repository), with shellcheck (found on PATH) on every `run:` script.
fn actionlint(dir: &Path, files: &[&str]) -> std::process::Output {
    let bin = prerequisites::actionlint().expect("checked by ready");
    Command::new(bin).args(files).current_dir(dir).output().expect("actionlint runs")
}

#[test]
fn the_workflows_pass_actionlint_and_the_scripts_shellcheck() {
    if !prerequisites::ready("weekly::actionlint", &[Need::Actionlint]) {
        return;
    }
    let root = repo_root();
    let workflows: Vec<String> = fs::read_dir(root.join(WORKFLOWS))
        .unwrap()
        .map(|e| format!("{WORKFLOWS}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    assert_eq!(workflows.len(), 2, "{workflows:?}");
    let out = actionlint(&root, &workflows.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        out.status.success(),
        "actionlint:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new("shellcheck")
        .args(["tools/weekly", "tools/weekly-dry-run", ".ci/run"])
        .current_dir(&root)
        .output()
        .expect("shellcheck runs");
    assert!(out.status.success(), "shellcheck:\n{}", String::from_utf8_lossy(&out.stdout));

    // The check can fail: the same workflow with an unknown input and a script injection.
    let bad = temp_dir("weekly-actionlint");
    fs::create_dir_all(bad.join(WORKFLOWS)).unwrap();
    let broken = text(".github/workflows/weekly.yml")
        .replace("node-version: \"20\"", "node-versions: \"20\"")
        .replace("run: tools/weekly walk", "run: tools/weekly walk ${{ github.event.head_commit.message }}");
    fs::write(bad.join(WORKFLOWS).join("weekly.yml"), broken).unwrap();
    let out = actionlint(&bad, &[".github/workflows/weekly.yml"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "actionlint passed a broken workflow");
    assert!(said.contains("node-versions") && said.contains("potentially untrusted"), "{said}");
}

/// Runs tools/weekly-dry-run, keeping its folder; returns (the folder, its output).
fn dry_run(name: &str, incomplete: bool) -> Option<(crate::common::TempDir, String)> {
    dry_run_with(name, incomplete, &[])
}

fn dry_run_with(name: &str, incomplete: bool, env: &[(&str, &str)]) -> Option<(crate::common::TempDir, String)> {
    if !prerequisites::ready("weekly::dry_run", &[Need::Python3]) {
        return None;
    }
    let dir = temp_dir(name);
    let keep = dir.join("run");
    let mut cmd = Command::new(repo_root().join("tools/weekly-dry-run"));
    cmd.arg("--keep").arg(&keep).env("X402DIR_BIN", env!("CARGO_BIN_EXE_x402dir")).env("X402DIR_WALK_DATE", DATE);
    if incomplete {
        cmd.arg("--incomplete");
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("the dry run starts");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "tools/weekly-dry-run{}:\n{said}", if incomplete { " --incomplete" } else { "" });
    Some((dir, said))
}

/// The walk's date in the dry runs: after every stored snapshot, the weekly run's own
/// included, for years to come.
const DATE: &str = "2100-01-04";

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_complete_walk_ends_in_a_new_dated_folder_and_a_new_lock_line() {
    let Some((dir, said)) = dry_run("weekly-complete", false) else { return };
    assert!(said.contains("dry run passed: complete"), "{said}");
    assert!(said.contains("steps, as in the workflow: walk probe build test commit deploy"), "{said}");
    // Offline, every host resolves to loopback, where nothing listens: each request refused.
    assert!(said.contains("probed 1396 resources of 2100-01-04") && said.contains("no answer 1396"), "{said}");
    let run = dir.join("run");
    let origin = run.join("origin.git");
    assert_eq!(git(&origin, &["rev-list", "--count", "main"]).trim(), "2");
    let files = git(&origin, &["show", "--name-status", "--format=%s", "main"]);
    assert!(files.starts_with("Weekly walk of the catalogue: snapshot 2100-01-04"), "{files}");
    for added in [
        "A\tcontent/snapshots/2100-01-04.json",
        "A\tcontent/probes/2100-01-04.json",
        "A\tcontent/published/2100-01-04.sums",
        "M\tcontent/published.lock",
    ] {
        assert!(files.lines().any(|l| l == added), "{added} in\n{files}");
    }
    let lock = git(&origin, &["show", "main:content/published.lock"]);
    let before = git(&origin, &["show", "main~1:content/published.lock"]);
    assert_eq!(lock.lines().count(), before.lines().count() + 1);
    assert!(lock.lines().any(|l| l.starts_with("2100-01-04 method=")), "{lock}");
    // The stored snapshot is the dump's 1,400 items, walked complete.
    let snapshot = git(&origin, &["show", "main:content/snapshots/2100-01-04.json"]);
    let snapshot: serde_json::Value = serde_json::from_str(&snapshot).unwrap();
    assert_eq!(snapshot["header"]["complete"], true);
    assert_eq!(snapshot["header"]["item_count"], 1400);
    assert_eq!(snapshot["items"].as_array().unwrap().len(), 1400);
    let deployed = run.join("deployed");
    let manifest: serde_json::Value =
        serde_json::from_slice(&fs::read(deployed.join("2100-01-04/api/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["snapshot"]["date"], "2100-01-04");
    // The probe file committed is the one the folder publishes, and its manifest counts it.
    let committed = git(&origin, &["show", "main:content/probes/2100-01-04.json"]);
    let committed: serde_json::Value = serde_json::from_str(&committed).unwrap();
    let published: serde_json::Value =
        serde_json::from_slice(&fs::read(deployed.join("2100-01-04/api/probe.json")).unwrap()).unwrap();
    assert_eq!(committed, published);
    assert_eq!(manifest["probe"]["counts"]["probed"], 1396);
    assert_eq!(manifest["probe"]["counts"]["no_answer"], 1396);
    assert!(fs::read_to_string(deployed.join("_redirects")).unwrap().contains("/latest/* /2100-01-04/:splat 200"));

    // The new folder states its walk, when the next is due and when it turns stale, as
    // fixed dates from the walk's date; the root says which snapshots are two walks behind.
    assert_eq!(
        manifest["walk"],
        serde_json::json!({"date": DATE, "interval_days": 7, "next_due": "2100-01-11", "stale_after": "2100-01-18"})
    );
    let home = fs::read_to_string(deployed.join("2100-01-04/index.html")).unwrap();
    assert!(home.contains(r#"data-stale-after="2100-01-18""#), "the page carries its stale date");
    assert!(home.contains(r#"stale after <time datetime="2100-01-18">2100-01-18</time>"#));
    assert!(home.contains(r#"<script type="module" src="/2100-01-04/static/snapshot.js"></script>"#));
    assert!(deployed.join("2100-01-04/static/snapshot.js").is_file());
    let root = fs::read_to_string(deployed.join("index.html")).unwrap();
    assert!(root.contains(r#"The newest snapshot is of <time datetime="2100-01-04">2100-01-04</time>"#), "{root}");
    assert!(root.contains(r#"the next walk fell due on <time datetime="2100-01-11">2100-01-11</time>."#), "{root}");
    assert!(
        root.contains(r#"data-walks-since="2100-01-04" data-interval="7""#),
        "the root counts missed walks from the newest"
    );
    // snapshots.json states each snapshot's walk as its manifest does, so a client judges
    // staleness by the same day its pages do; nothing in it is the build's day.
    let list: serde_json::Value = serde_json::from_slice(&fs::read(deployed.join("snapshots.json")).unwrap()).unwrap();
    for s in list["snapshots"].as_array().unwrap() {
        let date = s["date"].as_str().unwrap();
        let manifest: serde_json::Value =
            serde_json::from_slice(&fs::read(deployed.join(date).join("api/manifest.json")).unwrap()).unwrap();
        assert_eq!(s["walk"], manifest["walk"], "{date}");
        assert!(s.get("stale_beside_newest").is_none());
    }
    let august = list["snapshots"].as_array().unwrap().iter().find(|s| s["date"] == "2026-08-20").unwrap();
    assert_eq!(august["walk"]["stale_after"], "2026-09-03");
}

#[test]
fn an_incomplete_walk_commits_nothing_and_leaves_the_site_as_it_was() {
    let Some((dir, said)) = dry_run("weekly-incomplete", true) else { return };
    assert!(said.contains("dry run passed: incomplete"), "{said}");
    // fetch's own message reaches the run's log.
    assert!(said.contains("page at offset 300"), "{said}");
    let run = dir.join("run");
    assert_eq!(git(&run.join("origin.git"), &["rev-list", "--count", "main"]).trim(), "1");
    assert!(git(&run.join("clone"), &["status", "--porcelain"]).is_empty());
    assert!(!run.join("clone/content/snapshots/2100-01-04.json").exists());
    assert!(!run.join("deployed/2100-01-04").exists());
    assert!(run.join("deployed/2025-12-31/index.html").is_file());
}

#[test]
fn walked_snapshots_past_the_kept_number_are_stored_compressed_and_built_as_they_are() {
    // Keep none uncompressed: the new walk itself is compressed before the build, so the
    // lock line, the commit and the deployed folder all come from DATE.json.gz.
    let Some((dir, said)) = dry_run_with("weekly-compressed", false, &[("X402DIR_KEEP_UNCOMPRESSED", "0")]) else {
        return;
    };
    assert!(said.contains("dry run passed: complete"), "{said}");
    assert!(said.contains("compressed content/snapshots/2100-01-04.json to content/snapshots/2100-01-04.json.gz"));
    let run = dir.join("run");
    let origin = run.join("origin.git");
    let files = git(&origin, &["show", "--name-status", "--format=", "main"]);
    assert!(files.lines().any(|l| l == "A\tcontent/snapshots/2100-01-04.json.gz"), "{files}");
    assert!(!files.contains("content/snapshots/2100-01-04.json\n"), "{files}");
    // The probe file is named by the date, whatever the snapshot's compression.
    assert!(files.lines().any(|l| l == "A\tcontent/probes/2100-01-04.json"), "{files}");
    // The imported dumps (the tests' fixtures) are never compressed.
    let tree = git(&origin, &["ls-tree", "--name-only", "main", "content/snapshots/"]);
    for date in crate::common::REAL_DATES {
        assert!(tree.lines().any(|l| l == format!("content/snapshots/{date}.json")), "{tree}");
    }
    let lock = git(&origin, &["show", "main:content/published.lock"]);
    assert!(lock.lines().any(|l| l.starts_with("2100-01-04 method=")), "{lock}");
    assert!(run.join("deployed/2100-01-04/api/manifest.json").is_file());
}

#[test]
fn a_compressed_snapshot_builds_the_same_folder_and_answers_the_same() {
    use catalogue::snapshot;
    let dir = temp_dir("weekly-gz");
    let (plain, packed) = (dir.join("plain"), dir.join("packed"));
    fs::create_dir_all(&plain).unwrap();
    fs::create_dir_all(&packed).unwrap();
    let source = repo_root().join("content/snapshots/2025-12-31.json");
    let bytes = fs::read(&source).unwrap();
    fs::write(plain.join("2025-12-31.json"), &bytes).unwrap();
    let gz = packed.join("2025-12-31.json.gz");
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("gzip -9 -n -c '{}' > '{}'", source.display(), gz.display()))
        .status()
        .unwrap();
    assert!(status.success());
    assert!(
        fs::metadata(&gz).unwrap().len() * 5 < bytes.len() as u64,
        "gzip makes a snapshot at least 5 times smaller"
    );
    assert_eq!(snapshot::list(&packed).unwrap().iter().map(snapshot::Stored::path).collect::<Vec<_>>(), [gz.as_path()]);
    assert_eq!(snapshot::date_of(&gz), Some("2025-12-31"));
    assert_eq!(snapshot::read_header(&gz).unwrap().item_count, snapshot::read_header(&source).unwrap().item_count);

    // The built folders are byte for byte the same.
    let method = method::Method::embedded();
    let (a, b) = (dir.join("a"), dir.join("b"));
    publish::build(&[plain.join("2025-12-31.json")], &a, &method).unwrap();
    publish::build(std::slice::from_ref(&gz), &b, &method).unwrap();
    let (fa, fb) = (crate::common::all_files(&a), crate::common::all_files(&b));
    let rel = |root: &Path, files: &[std::path::PathBuf]| -> Vec<std::path::PathBuf> {
        files.iter().map(|f| f.strip_prefix(root).unwrap().to_path_buf()).collect()
    };
    assert_eq!(rel(&a, &fa), rel(&b, &fb));
    assert!(fa.len() > 1000);
    for (x, y) in fa.iter().zip(&fb) {
        assert!(fs::read(x).unwrap() == fs::read(y).unwrap(), "{} differs", x.display());
    }

    // Every command reads it: query by path, and the folder's default.
    let query = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_x402dir")).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    // (Each alone in its folder: a snapshot's history is the folder's earlier snapshots.)
    let from_gz = query(&["query", "--json", "--snapshot", gz.to_str().unwrap(), "weather"]);
    let from_plain =
        query(&["query", "--json", "--snapshot", plain.join("2025-12-31.json").to_str().unwrap(), "weather"]);
    assert!(from_gz == from_plain, "query answers differ:\n{}", String::from_utf8_lossy(&from_gz));
    // One date stored both ways is refused, never left to chance.
    fs::write(packed.join("2025-12-31.json"), &bytes).unwrap();
    let err = snapshot::list(&packed).unwrap_err().to_string();
    assert!(err.contains("the same date stored twice"), "{err}");
}
