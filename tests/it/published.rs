//! content/method.md#published: a dated folder's answers, once published, never change
//! without saying so. The lock of published dates is checked by every locked build.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{all_files, repo_root, temp_dir, TempDir};
use catalogue::import::import_file;
use method::corrections::Corrections;
use method::screen::PatternList;
use method::Method;
use publish::lock::{Policy, Verdict};
use publish::Options;

const DATE: &str = "2026-01-10";

/// The mini fixture catalogue as a stored snapshot, and where its lock and site go.
fn fixture(name: &str) -> (TempDir, PathBuf, PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let snap = import_file(&repo_root().join("tests/fixtures/site/mini.json"), DATE).unwrap();
    let path = snap.write_into(&dir.join("snapshots"), false).unwrap();
    let (lock, out) = (dir.join("content/published.lock"), dir.join("public"));
    (dir, path, lock, out)
}

fn build(path: &Path, lock: &Path, out: &Path, method: &Method, republish: &[&str]) -> Result<Verdict, String> {
    let options = Options {
        lock: Some(lock.to_owned()),
        policy: Policy { republish: republish.iter().map(|d| (*d).to_owned()).collect(), frozen: false },
        ..Options::default()
    };
    publish::build_with(&[path.to_owned()], out, method, &options)
        .map(|built| built[0].lock.clone().expect("a locked build says what the lock found"))
        .map_err(|e| e.to_string())
}

/// Every file of the published folder, with its bytes.
fn folder(out: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    all_files(&out.join(DATE)).into_iter().map(|f| (f.clone(), fs::read(&f).unwrap())).collect()
}

#[test]
fn a_screening_change_is_refused_until_republished_with_a_correction_and_a_page_change_passes() {
    let (_dir, snapshot, lock, out) = fixture("published-screening");
    let embedded = Method::embedded();
    assert_eq!(build(&snapshot, &lock, &out, &embedded, &[]), Ok(Verdict::New));
    let line = fs::read_to_string(&lock).unwrap();
    assert!(line.contains(&format!("{DATE} method=")) && line.contains("screening=1.0.0"), "{line}");
    let sums = fs::read_to_string(lock.with_file_name("published").join(format!("{DATE}.sums"))).unwrap();
    assert!(sums.lines().any(|l| l.ends_with(" api/manifest.json")), "{sums}");
    assert!(sums.lines().all(|l| l.split_once(' ').unwrap().1.starts_with("api/")), "only the API is locked");
    assert_eq!(build(&snapshot, &lock, &out, &embedded, &[]), Ok(Verdict::Unchanged));

    // A change that only pages show passes: pages may improve freely. (Templates are
    // compiled in; the corrections page's new entry is the same kind of change.)
    let noted = Corrections::parse(
        r#"{"entries": [{"date": "2026-12-04", "kind": "misattribution", "resource": "https://elsewhere.example/", "note": "a page-only note"}]}"#,
    )
    .unwrap();
    let method = Method { corrections: &noted, ..embedded };
    assert_eq!(build(&snapshot, &lock, &out, &method, &[]), Ok(Verdict::Unchanged));
    assert!(fs::read_to_string(out.join(DATE).join("corrections/index.html")).unwrap().contains("a page-only note"));

    // A wider screening list withholds the "Headlines" description: the answers change.
    let patterns = format!(
        "{}\nS99\tcoercive\t\\bheadlines\\b\n",
        include_str!("../../content/screen/patterns.txt").replace("version = 1.0.0", "version = 1.1.0")
    );
    let wider = PatternList::parse(&patterns).unwrap();
    let method = Method { screen: &wider, ..embedded };
    let published = folder(&out);
    let refused = build(&snapshot, &lock, &out, &method, &[]).unwrap_err();
    assert!(refused.contains(&format!("the published answers of {DATE} would change")), "{refused}");
    assert!(refused.contains("screening 1.1.0 (locked 1.0.0)"), "{refused}");
    assert!(refused.contains(&format!("first: {DATE}/api/")) && refused.contains(" differs"), "{refused}");
    assert!(refused.contains(&format!("--republish {DATE}")), "{refused}");
    assert_eq!(folder(&out), published, "a refused build leaves the published folder as it was");
    assert!(fs::read_to_string(&lock).unwrap().contains("screening=1.0.0"), "and the lock");

    // The flag alone is not enough: the change needs a corrections entry for that date.
    let refused = build(&snapshot, &lock, &out, &method, &[DATE]).unwrap_err();
    assert!(refused.contains("corrections.json") && refused.contains("republished"), "{refused}");
    assert_eq!(folder(&out), published);

    // An entry written before the line was locked explained an earlier change: not this one.
    let today = catalogue::snapshot::now_rfc3339()[..10].to_owned();
    let entry = |date: &str, answers: Option<&str>| {
        let answers = answers.map(|a| format!(r#", "answers": "{a}""#)).unwrap_or_default();
        Corrections::parse(&format!(
            r#"{{"entries": [{{"date": "{date}", "kind": "republished", "snapshot": "{DATE}", "note": "screening 1.1.0 withholds a description"{answers}}}]}}"#
        ))
        .unwrap()
    };
    let old = entry("2026-01-11", None);
    let refused = build(&snapshot, &lock, &out, &Method { screen: &wider, corrections: &old, ..embedded }, &[DATE]);
    assert!(refused.unwrap_err().contains("needs an entry"));

    // An entry of today that does not name the new answers is not enough either: the
    // refusal says which digest the build makes.
    let unnamed = entry(&today, None);
    let refused = build(&snapshot, &lock, &out, &Method { screen: &wider, corrections: &unnamed, ..embedded }, &[DATE])
        .unwrap_err();
    assert!(refused.contains("names them"), "{refused}");
    let digest = refused.split("\"answers\": \"").nth(1).and_then(|d| d.split('"').next()).unwrap().to_owned();
    assert_eq!(digest.len(), 64, "{refused}");
    assert_eq!(folder(&out), published);

    // Flag and an entry naming the new answers: built, relocked, and the pages say so.
    let log = entry(&today, Some(&digest));
    let method = Method { screen: &wider, corrections: &log, ..embedded };
    let verdict = build(&snapshot, &lock, &out, &method, &[DATE]).unwrap();
    assert!(matches!(&verdict, Verdict::Relocked(why) if why.contains("screening 1.1.0")), "{verdict:?}");
    let line = fs::read_to_string(&lock).unwrap();
    assert!(line.contains("screening=1.1.0") && line.contains(&format!("answers={digest}")), "{line}");
    assert!(line.contains(&format!("locked={today}")), "{line}");
    for page in ["index.html", "search/index.html", "browse/index.html"] {
        let html = fs::read_to_string(out.join(DATE).join(page)).unwrap();
        let notice = format!(r#"Answers republished on {today} — <a href="/{DATE}/corrections/">why"#);
        assert!(html.contains(&notice), "{page}");
    }
    let log = fs::read_to_string(out.join(DATE).join("corrections/index.html")).unwrap();
    assert!(log.contains(&format!(r#"the published folder of <a href="/{DATE}/">{DATE}</a>"#)), "{log}");
    // Locked again under the new line.
    assert_eq!(build(&snapshot, &lock, &out, &method, &[]), Ok(Verdict::Unchanged));
}

#[test]
fn the_command_line_checks_the_lock_and_ci_s_locked_build_refuses_a_new_date() {
    let (_dir, snapshot, lock, out) = fixture("published-cli");
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_x402dir")).args(args).current_dir(repo_root()).output().unwrap();
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr))
    };
    let (s, l, o) = (snapshot.to_str().unwrap(), lock.to_str().unwrap(), out.to_str().unwrap());
    let (code, said) = run(&["build", "--snapshot", s, "--lock", l, "--out", o, "--locked"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains(&format!("{DATE} is not in")), "{said}");
    assert!(!lock.exists(), "a refused date is not written");
    let (code, said) = run(&["build", "--snapshot", s, "--lock", l, "--out", o]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("added to the lock"), "{said}");
    let (code, said) = run(&["build", "--snapshot", s, "--lock", l, "--out", o, "--locked"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("answers as locked"), "{said}");
    let (code, said) = run(&["build", "--snapshot", s, "--out", o, "--republish", DATE]);
    assert_ne!(code, Some(0), "--republish without a lock is refused: {said}");
}

/// CI's check: every stored snapshot is in the committed lock, and building them with
/// this code gives exactly the locked answers.
#[test]
fn the_committed_lock_covers_every_stored_snapshot_and_holds() {
    let out = temp_dir("published-committed").at("public");
    let o = Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args(["build", "--locked", "--out", out.to_str().unwrap()])
        .current_dir(repo_root())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{said}");
    let stored = fs::read_dir(repo_root().join("content/snapshots")).unwrap().count();
    assert_eq!(said.matches("answers as locked").count(), stored, "{said}");
}

/// The build killed at every step of replacing a published folder: the date's folder is
/// there after each kill, whole, and the next build (here one that fails) never deletes
/// the only copy of a date. Before, a kill between the two renames left the date
/// missing, and the next build deleted its `.old-` copy as a leftover.
/// The sums beside the lock are the build's, never edited: a changed or shortened file
/// is refused by a build whose answers are as locked (it passed before).
#[test]
fn an_edited_sums_file_is_refused() {
    let (_dir, snapshot, lock, out) = fixture("published-sums");
    let embedded = Method::embedded();
    assert_eq!(build(&snapshot, &lock, &out, &embedded, &[]), Ok(Verdict::New));
    let sums_file = lock.with_file_name("published").join(format!("{DATE}.sums"));
    let sums = fs::read_to_string(&sums_file).unwrap();
    let edited = sums.replacen(&sums[..4], "0000", 1);
    let shortened: String = sums.lines().skip(1).map(|l| format!("{l}\n")).collect();
    for (how, text) in [("edited", edited), ("shortened", shortened)] {
        fs::write(&sums_file, text).unwrap();
        let refused = build(&snapshot, &lock, &out, &embedded, &[]).unwrap_err();
        assert!(refused.contains("does not match the folder the lock describes"), "{how}: {refused}");
    }
    fs::write(&sums_file, &sums).unwrap();
    assert_eq!(build(&snapshot, &lock, &out, &embedded, &[]), Ok(Verdict::Unchanged));
}

/// The command line reads the corrections log beside the lock, not the one compiled in:
/// an entry deleted from the file no longer lets a date be republished.
#[test]
fn the_corrections_log_is_read_from_beside_the_lock() {
    let (dir, snapshot, lock, out) = fixture("published-log");
    let bin = crate::common::memory::x402dir_bin();
    let run = |extra: &[&str]| {
        Command::new(&bin)
            .arg("build")
            .arg("--snapshot")
            .arg(&snapshot)
            .arg("--out")
            .arg(&out)
            .arg("--lock")
            .arg(&lock)
            .args(extra)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let log = lock.with_file_name("corrections.json");
    fs::write(&log, r#"{"entries": []}"#).unwrap();
    assert!(run(&[]).status.success());
    let refused = run(&["--republish", DATE]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("needs an entry"));
    let today = catalogue::snapshot::now_rfc3339()[..10].to_owned();
    fs::write(
        &log,
        format!(r#"{{"entries": [{{"date": "{today}", "kind": "republished", "snapshot": "{DATE}", "note": "n"}}]}}"#),
    )
    .unwrap();
    // Found in the file; the answers are unchanged, so nothing is relocked.
    let built = run(&["--republish", DATE]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    assert!(String::from_utf8_lossy(&built.stdout).contains("answers as locked"));
    // The page shows the file's entry, not the compiled-in log.
    let corrections = fs::read_to_string(out.join(DATE).join("corrections/index.html")).unwrap();
    assert!(corrections.contains(&today) && !corrections.contains("API layout 4"), "the file's log is published");
}

#[test]
fn a_build_killed_during_the_swap_leaves_every_date_in_place() {
    let (dir, path, _, out) = fixture("swap-kill");
    let bin = crate::common::memory::x402dir_bin();
    let build = |extra: &[&str], pause: Option<&str>| {
        let mut command = Command::new(&bin);
        // --rebuild: each build swaps a folder in, even where the last one's is kept.
        command.arg("build").arg("--rebuild").arg("--snapshot").arg(&path).arg("--out").arg(&out).args(extra);
        command.current_dir(dir.path()).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped());
        if let Some(step) = pause {
            command.env("X402DIR_TEST_PAUSE", step);
        }
        command.spawn().unwrap()
    };
    let whole = |why: &str| {
        assert!(out.join(DATE).join("index.html").is_file(), "{why}: the folder of {DATE} is missing");
        assert!(out.join(DATE).join("api/manifest.json").is_file(), "{why}: the folder of {DATE} is not whole");
    };
    assert!(build(&[], None).wait_with_output().unwrap().status.success());
    whole("first build");
    for step in ["before-swap", "after-exchange", "after-swap"] {
        let mut child = build(&[], Some(step));
        let mut said = String::new();
        let stderr = child.stderr.take().unwrap();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stderr), &mut said).unwrap();
        assert_eq!(said.trim(), format!("paused at {step}"));
        child.kill().unwrap();
        child.wait().unwrap();
        whole(step);
    }
    // What a kill between two renames leaves where the folders cannot be exchanged: the
    // date's folder gone, its only copy under `.old-`. A build that then fails puts it back.
    let only_copy = out.join(format!(".old-{DATE}-999999999.0"));
    fs::rename(out.join(DATE), &only_copy).unwrap();
    let failed = build(&["--max-files", "1"], None).wait_with_output().unwrap();
    assert!(!failed.status.success());
    whole("a failed build after a kill between renames");
    assert!(!only_copy.exists());
    // And a build that succeeds leaves no leftover behind.
    assert!(build(&[], None).wait_with_output().unwrap().status.success());
    whole("last build");
    let hidden: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && n != publish::incremental::RECORDS_DIR)
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
}
