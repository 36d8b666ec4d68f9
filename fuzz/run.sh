#!/usr/bin/env bash
# Short bounded fuzz run of every cargo-fuzz target, starting from its committed corpus.
#
#   FUZZ_SECONDS=30 bash fuzz/run.sh        # seconds per target (default 30)
#
# Exits non-zero when a target finds a crash (the input is left in
# fuzz/artifacts/<target>/). When the run cannot start at all — no nightly toolchain,
# cargo-fuzz missing and not installable, the fuzz build failing, the fuzzer not
# starting — it prints "fuzz run skipped: <reason>" and exits 0: the committed corpora
# are still replayed by `cargo test` (tests/it/fuzz_corpus.rs).
#
# New inputs the fuzzer finds go to fuzz/target/corpus-new/<target>/ (ignored by git),
# not into the committed corpus; merge them by hand if worth keeping (fuzz/README.md).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

SECONDS_PER_TARGET="${FUZZ_SECONDS:-30}"
TARGETS=(catalogue_item normalise query_tokens)
LOGS=fuzz/target/logs

skip() {
  echo "fuzz run skipped: $*"
  exit 0
}

command -v cargo >/dev/null 2>&1 || skip "cargo not found"
cargo +nightly --version >/dev/null 2>&1 || skip "no nightly toolchain (\`cargo +nightly\` does not run)"
mkdir -p "$LOGS" || skip "cannot create $LOGS"

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "== cargo-fuzz not found: cargo install cargo-fuzz --locked"
  if ! cargo install cargo-fuzz --locked >"$LOGS/install.log" 2>&1; then
    tail -n 20 "$LOGS/install.log"
    skip "cargo install cargo-fuzz failed"
  fi
  cargo +nightly fuzz --version >/dev/null 2>&1 || skip "cargo fuzz unavailable after installing cargo-fuzz"
fi
echo "== $(cargo +nightly --version); $(cargo +nightly fuzz --version)"

echo "== cargo +nightly fuzz build"
# cargo fuzz has no --locked: a lock the build had to change means the fuzzers were
# built from versions nobody committed, so it fails the run as `cargo test --locked`
# fails on a stale Cargo.lock.
locked="$(cat fuzz/Cargo.lock)"
if ! cargo +nightly fuzz build >"$LOGS/build.log" 2>&1; then
  tail -n 30 "$LOGS/build.log"
  skip "cargo +nightly fuzz build failed (the corpus replay in cargo test still compiles the same checks)"
fi
if [ "$(cat fuzz/Cargo.lock)" != "$locked" ]; then
  diff <(printf '%s\n' "$locked") fuzz/Cargo.lock | grep -E '^[<>] (name|version) ' | head -n 20
  echo "fuzz run FAILED: fuzz/Cargo.lock was out of date and the build changed it (above); commit the new one"
  exit 1
fi

failed=()
not_started=()
for target in "${TARGETS[@]}"; do
  corpus="fuzz/corpus/$target"
  scratch="fuzz/target/corpus-new/$target"
  artifacts="fuzz/artifacts/$target"
  log="$LOGS/$target.log"
  mkdir -p "$scratch" "$artifacts"
  before="$(ls -A "$artifacts" | sort)"
  echo "== fuzz $target for ${SECONDS_PER_TARGET}s (corpus: $(ls -A "$corpus" | wc -l) files)"
  # New inputs are written to the first folder given (the scratch one).
  cargo +nightly fuzz run "$target" "$scratch" "$corpus" -- \
    -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 >"$log" 2>&1
  rc=$?
  after="$(ls -A "$artifacts" | sort)"
  new_artifacts="$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed '/^$/d')"
  grep -E '^#[0-9]+[[:space:]]+INITED|^Done [0-9]+ runs' "$log" | sed 's/^/   /'
  if [ "$rc" -eq 0 ] && [ -z "$new_artifacts" ]; then
    continue
  fi
  if [ -n "$new_artifacts" ]; then
    # The panic or sanitizer report and its stack, else the end of the log.
    report="$(grep -n -m1 -E 'panicked at|==[0-9]+==ERROR|ERROR: libFuzzer' "$log" | cut -d: -f1)"
    if [ -n "$report" ]; then sed -n "${report},$((report + 50))p" "$log"; else tail -n 60 "$log"; fi
    echo "!! $target: crash found; input(s):"
    for a in $new_artifacts; do echo "   $artifacts/$a"; done
    echo "   reproduce: cargo +nightly fuzz run $target $artifacts/<file>"
    echo "   minimise:  cargo +nightly fuzz tmin $target $artifacts/<file>"
    echo "   then save it as fuzz/regressions/$target-<short-name> (replayed by cargo test)"
    failed+=("$target")
  elif ! grep -q 'INFO: Seed:' "$log"; then
    tail -n 30 "$log"
    echo "fuzz run skipped: the $target fuzzer did not start (exit $rc)"
    not_started+=("$target")
  else
    tail -n 60 "$log"
    echo "!! $target: fuzzer exited with status $rc"
    failed+=("$target")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz run FAILED: ${failed[*]}"
  exit 1
fi
if [ "${#not_started[@]}" -gt 0 ]; then
  echo "fuzz run incomplete: did not start: ${not_started[*]} (corpora are still replayed by cargo test)"
  exit 0
fi
echo "fuzz run passed: ${TARGETS[*]}, ${SECONDS_PER_TARGET}s each"
