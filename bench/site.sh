#!/usr/bin/env bash
# Site benchmarks (issue 3), each beside a reference measured in the same run:
# 1. full build of the embedded snapshots (median of N) vs copying the same output tree
#    with `cp -r` (the cost of merely writing those files);
# 2. bytes and requests per query in headless Chromium (bench/query-bytes.mjs) vs
#    fetching every shard and record.
# Needs: cargo, node, npm ci (playwright-core), Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=target/release/x402dir
# Inside target/: the same file system as a normal build (here /tmp is far slower).
work=$(mktemp -d -p target)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 )); }

"$bin" build --out "$work/public" >/dev/null
files=$(find "$work/public" -type f | wc -l)
bytes=$(du -sb "$work/public" | cut -f1)
build=$(for _ in $(seq "$runs"); do rm -rf "$work/b"; ms "$bin" build --out "$work/b"; done | median)
copy=$(for _ in $(seq "$runs"); do rm -rf "$work/c"; ms cp -r "$work/public" "$work/c"; done | median)
echo "## Build (median of $runs)"
echo
echo "| what | ms | ratio to cp -r |"
echo "|---|---:|---:|"
echo "| x402dir build, 3 snapshots, $files files, $((bytes / 1048576)) MiB | $build | $(awk -v a="$build" -v b="$copy" 'BEGIN {printf "%.2f", a/b}') |"
echo "| cp -r of the same tree | $copy | 1.00 |"
echo
echo "## Bytes and requests per query (snapshot 2025-12-31)"
echo
node bench/query-bytes.mjs "$work/public" 2025-12-31
