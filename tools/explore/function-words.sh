#!/usr/bin/env bash
# Regenerate explore's function words of other languages
# (content/explore/function-words.txt, content/explore.md#words) byte for byte.
#
#   tools/explore/function-words.sh [OUT_FILE]
#
# The words come from the stopword lists of the PyPI wheel stop-words (pinned by version
# and digest) for every language it has that is written with spaces between words, less
# the words that are English: explore's stopwords and the lower-case words of Debian's
# English word list (package wamerican, /usr/share/dict/american-english, checked by
# digest); and less every word that at least MIN_DOCUMENTS documents of the stored
# snapshots contain (content/explore/vectors/corpus-documents.tsv), since 2.10.0.
# Everything it installs goes into a temporary directory removed on exit.
set -euo pipefail

PACKAGE="stop-words==2025.11.4"
WHEEL_SHA256=b3fc0722e42b722a9350aad59a8ba5850085a5b45a4ba9de390b4f5c4b86df25
DICT=/usr/share/dict/american-english
DICT_SHA256=9f513f1ceadb6a01c5485b7dbdfd5118dc66cd70b59cae2851292112d4066a32
# Listings use "ai", "com", "io", "og" in 6 to 534 documents, "sam" and "mon" in 4; "un",
# "de", "del", "se", "et" are in at most 3, listings written in another language
# (content/explore.md#function-words).
MIN_DOCUMENTS=4

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo_root="$(cd "$here/../.." && pwd -P)"
out="$(realpath -m "${1:-$repo_root/content/explore/function-words.txt}")"

[ -r "$DICT" ] || { echo "$DICT is missing: apt-get install wamerican" >&2; exit 1; }
echo "$DICT_SHA256  $DICT" | sha256sum --check --quiet - || { echo "$DICT is not the expected wamerican list" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/function-words.XXXXXX")"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
echo "$PACKAGE --hash=sha256:$WHEEL_SHA256" > "$work/requirements.txt"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes --only-binary=:all: -r "$work/requirements.txt"
"$work/venv/bin/python" "$here/function_words.py" \
    --dict "$DICT" \
    --stopwords "$repo_root/content/explore/stopwords.txt" \
    --documents "$repo_root/content/explore/vectors/corpus-documents.tsv" --min-documents "$MIN_DOCUMENTS" \
    --package "$PACKAGE" > "$out"
echo "function words: $(grep -vc '^#' "$out") written to $out"
