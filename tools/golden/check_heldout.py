#!/usr/bin/env python3
"""Self-check of the held-out golden classes (issue 34; RULES.md, "The held-out classes").

Reads only content/explore/golden/heldout.json, corpus.tsv, the ids of golden.json and
multilingual.json (no id may be reused) and the snapshot's payment options (for the
networks an `agent` query's constraints name). Python 3 standard library only.

Checks: ids h01..h40 in order, ten per class, each class with its kind; every labelled
URL a resource of corpus.tsv, none twice, none in both lists, 1..40 per query; at least
six languages among the other-language queries; and every label of an `agent` query
keeps the constraints it restates: a price cap ("max $X"), a network ("network base",
"network solana"), "no test networks", or "cheapest" (the answers at one known price). Exits 1 and prints every failure.
"""
import collections
import json
import os
import re
import sys

from labels import GOLDEN, ROOT, label_errors, read_corpus

CLASSES = {
    "held-out-paraphrase": "paraphrase",
    "held-out-exact-term": "exact-term",
    "held-out-language-typo": "language-typo",
    "held-out-agent": "agent",
}
# Base mainnet is named two ways in the snapshot, as is Solana's.
NETWORKS = {
    "base": lambda n: n in ("base", "eip155:8453"),
    "solana": lambda n: n == "solana" or n.startswith("solana:5eyk"),
}


def is_test_network(network):
    return any(word in network for word in ("sepolia", "devnet", "testnet"))


def load_json(name):
    with open(os.path.join(GOLDEN, name), encoding="utf-8") as f:
        return json.load(f)


def main():
    corpus = read_corpus()

    doc = load_json("heldout.json")
    with open(os.path.join(ROOT, "content", "snapshots", f"{doc['snapshot']}.json"), encoding="utf-8") as f:
        items = json.load(f)["items"]
    networks = collections.defaultdict(set)
    for item in items:
        for option in item.get("accepts") or []:
            if option.get("network"):
                networks[item.get("resource")].add(option["network"])
    taken = {q["id"] for name in ("golden.json", "multilingual.json") for q in load_json(name)["queries"]}

    def price(url):
        try:
            return float(corpus[url]["price_usd"])
        except (KeyError, ValueError):
            return None

    errors = []
    if doc.get("snapshot") != "2025-12-31":
        errors.append("snapshot is not 2025-12-31")
    queries = doc.get("queries", [])
    ids = [q.get("id") for q in queries]
    if ids != [f"h{n:02d}" for n in range(1, 41)]:
        errors.append("ids are not h01..h40 in order")
    errors += [f"{qid}: id already used in golden.json or multilingual.json" for qid in ids if qid in taken]
    per_class = collections.Counter(q.get("class") for q in queries)
    for name in CLASSES:
        if per_class[name] != 10:
            errors.append(f"class {name}: {per_class[name]} queries, not 10")
    for q in queries:
        qid = q.get("id")
        if CLASSES.get(q.get("class")) != q.get("kind"):
            errors.append(f"{qid}: kind {q.get('kind')!r} is not that of class {q.get('class')!r}")
        for key in ("language", "query", "note"):
            if not str(q.get(key, "")).strip():
                errors.append(f"{qid}: empty {key}")
        answers, partly = q.get("answers", []), q.get("partly_answers", [])
        labelled = answers + partly
        errors += label_errors(qid, answers, partly, corpus)
        if q.get("kind") != "agent":
            continue
        said = q.get("constraints", "")
        if not said:
            errors.append(f"{qid}: an agent query restates no constraints")
        cap = re.search(r"max \$([0-9.]+)", said)
        for url in labelled:
            if cap and (price(url) is None or price(url) > float(cap.group(1))):
                errors.append(f"{qid}: {url} costs {price(url)}, above the cap {cap.group(1)}")
            for name, on in NETWORKS.items():
                if f"network {name}" in said and not any(on(n) for n in networks[url]):
                    errors.append(f"{qid}: {url} has no payment option on {name}")
            if "no test networks" in said and all(is_test_network(n) for n in networks[url]):
                errors.append(f"{qid}: {url} is paid on test networks only")
        if said == "cheapest":
            # The need's answers at the lowest known price answer; every other listing the
            # need labelled partly answers, whatever its price (RULES.md, "Restated needs").
            prices = {price(url) for url in answers}
            if len(prices) != 1 or None in prices:
                errors.append(f"{qid}: the answers' prices {sorted(prices, key=str)} are not one known price")

    languages = collections.Counter(q.get("language") for q in queries if q.get("kind") == "language-typo")
    if len([lang for lang in languages if lang != "en"]) < 6:
        errors.append(f"other-language queries in {len(languages)} languages (need at least 6 besides English)")
    print(f"queries: {len(queries)}")
    print("languages of the language-typo class: " + ", ".join(f"{k} {v}" for k, v in sorted(languages.items())))
    print(f"labels: {sum(len(q['answers']) for q in queries)} answers, "
          f"{sum(len(q['partly_answers']) for q in queries)} partly")
    for e in errors:
        print("FAIL: " + e)
    if errors:
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
