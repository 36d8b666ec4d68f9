"""How far a regenerated translation table is from the committed one, for a machine whose
engine computes other cosines than the table's maker's (numerics.py; README.md,
"Reproducing the translation table"). Exit 1 when it is further than such a machine
moves it.

    python3 compare_tables.py COMMITTED_DIR REGENERATED_DIR

Each folder holds translations.tsv and translations.json. Passes when at least
MIN_SAME_READING of the committed pairs are regenerated with the same reading, no cosine
of a word in both moves by more than MAX_COSINE_MOVE, and the provenance differs only in
its counts and the table's digest. The bounds are twice what an AMD EPYC moved the
table made on another machine on 2026-12-05 (98.2% same reading, largest move 0.002).
"""

import json
import os
import sys

MIN_SAME_READING = 0.964
MAX_COSINE_MOVE = 0.004


def table(folder):
    pairs = {}
    with open(os.path.join(folder, "translations.tsv"), encoding="utf-8") as f:
        for line in f:
            word, read_as, cosine, kept_by = line.rstrip("\n").split("\t")
            pairs[word] = (read_as, float(cosine), kept_by)
    with open(os.path.join(folder, "translations.json"), encoding="utf-8") as f:
        provenance = json.load(f)
    return pairs, provenance


def main():
    (old, old_p), (new, new_p) = table(sys.argv[1]), table(sys.argv[2])
    both = old.keys() & new.keys()
    same = sum(old[w][0] == new[w][0] for w in both)
    # No word in both: nothing moved, and the share below fails it.
    move = max(((abs(old[w][1] - new[w][1]), w) for w in both), default=(0.0, "no word in both"))
    rest = lambda p: {k: v for k, v in p.items() if k not in ("counts", "translations_sha256")}
    share = same / len(old)
    print(f"committed {len(old)} pairs, regenerated {len(new)}; same reading for {same} "
          f"({share:.1%}; at least {MIN_SAME_READING:.1%} needed); largest cosine move "
          f"{move[0]:.4f} ({move[1]}; at most {MAX_COSINE_MOVE} allowed)")
    problems = []
    if share < MIN_SAME_READING:
        problems.append("too few pairs read the same")
    if move[0] > MAX_COSINE_MOVE + 1e-9:
        problems.append("a cosine moved too far")
    if rest(old_p) != rest(new_p):
        problems.append("the provenance differs beyond its counts and digest")
    for p in problems:
        print(f"compare_tables: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
