#!/usr/bin/env bash
# Latency of `x402dir explore --json` and `x402dir eval`, median of N runs, beside a
# reference measured in the same run: `x402dir query --json` for the same words on the
# same snapshot (which reads the same files and builds the same method index).
# Usage: bench/explore.sh [runs]   (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
cargo build --release --quiet
bin=target/release/x402dir
snap=content/snapshots/2025-12-31.json

# shellcheck source=bench/lib.sh
. bench/lib.sh

printf '| command (snapshot 2025-12-31, 1,396 resources) | median ms | reference: query --json (ms) | ratio |\n|---|---:|---:|---:|\n'
for words in "current conditions outdoors" "token price"; do
  # shellcheck disable=SC2086
  e=$(median_ms "$bin" explore --json --snapshot "$snap" $words)
  # shellcheck disable=SC2086
  q=$(median_ms "$bin" query --json --snapshot "$snap" $words)
  printf '| explore --json "%s" | %s | %s | %s |\n' "$words" "$e" "$q" "$(awk -v a="$e" -v b="$q" 'BEGIN {printf "%.2f", a/b}')"
done
e=$(median_ms "$bin" eval)
q=$(median_ms "$bin" query --json --snapshot "$snap" token price)
printf '| eval (84 queries, 6 rankings) | %s | %s | %s |\n' "$e" "$q" "$(awk -v a="$e" -v b="$q" 'BEGIN {printf "%.2f", a/b}')"
