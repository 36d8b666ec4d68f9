#!/usr/bin/env bash
# Query latency of `x402dir query --json` on each embedded snapshot, as a median of
# N runs, beside a reference measured in the same run: Python's json.load of the
# same snapshot file (the cost of merely reading the data in a common tool).
# Usage: bench/query.sh [runs]   (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
cargo build --release --quiet
bin=target/release/x402dir

# shellcheck source=bench/lib.sh
. bench/lib.sh

printf '| snapshot | items | x402dir query --json "token price" (ms) | python json.load (ms) | ratio |\n|---|---:|---:|---:|---:|\n'
for snap in content/snapshots/*.json; do
  items=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['header']['item_count'])" "$snap")
  q=$(median_ms "$bin" query --json --snapshot "$snap" token price)
  ref=$(median_ms python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$snap")
  ratio=$(awk -v a="$q" -v b="$ref" 'BEGIN {printf "%.2f", a/b}')
  printf '| %s | %s | %s | %s | %s |\n' "$(basename "$snap" .json)" "$items" "$q" "$ref" "$ratio"
done
