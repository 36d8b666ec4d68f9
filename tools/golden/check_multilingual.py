#!/usr/bin/env python3
"""Self-check of the `multilingual` golden class (explore 3, issue 34).

Reads only content/explore/golden/multilingual.json and corpus.tsv (and the ids
of golden.json, to make sure no id is reused). Python 3 standard library only.

Checks: every labelled URL is a resource of corpus.tsv; ids are unique and
of the form mNN; every query lists 1..40 resources; no URL is in both lists
(nor twice in one list); at least 8 languages and at least 40 queries.
Exits 1 and prints every failure if a check fails.
"""
import collections
import json
import os
import re
import sys

from labels import GOLDEN, label_errors, read_corpus

KINDS = {"diacritics", "cjk", "compound", "typos", "situation", "inflection", "phrase"}


def main():
    corpus = read_corpus()

    with open(os.path.join(GOLDEN, "multilingual.json"), encoding="utf-8") as f:
        doc = json.load(f)
    with open(os.path.join(GOLDEN, "golden.json"), encoding="utf-8") as f:
        golden_ids = {q["id"] for q in json.load(f)["queries"]}

    errors = []
    if doc.get("snapshot") != "2025-12-31":
        errors.append("snapshot is not 2025-12-31")
    if doc.get("class") != "multilingual":
        errors.append("top-level class is not 'multilingual'")
    queries = doc.get("queries", [])
    ids = [q.get("id") for q in queries]
    for qid, n in collections.Counter(ids).items():
        if n > 1:
            errors.append(f"id {qid} used {n} times")
    for q in queries:
        qid = q.get("id")
        if not re.fullmatch(r"m\d{2,}", str(qid)):
            errors.append(f"{qid}: id is not of the form mNN")
        if qid in golden_ids:
            errors.append(f"{qid}: id already used in golden.json")
        if q.get("class") != "multilingual":
            errors.append(f"{qid}: class is not 'multilingual'")
        if q.get("kind") not in KINDS:
            errors.append(f"{qid}: unknown kind {q.get('kind')!r}")
        for key in ("language", "query", "note"):
            if not str(q.get(key, "")).strip():
                errors.append(f"{qid}: empty {key}")
        errors += label_errors(qid, q.get("answers", []), q.get("partly_answers", []), corpus)

    langs = collections.Counter(q.get("language") for q in queries)
    kinds = collections.Counter(q.get("kind") for q in queries)
    if len(langs) < 8:
        errors.append(f"only {len(langs)} languages (need at least 8)")
    if len(queries) < 40:
        errors.append(f"only {len(queries)} queries (need at least 40)")

    labels = [len(q.get("answers", [])) + len(q.get("partly_answers", [])) for q in queries]
    print(f"queries: {len(queries)}")
    print("languages: " + ", ".join(f"{k} {v}" for k, v in sorted(langs.items(), key=lambda kv: (-kv[1], kv[0]))))
    print("kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))))
    if labels:
        print(f"labels: {sum(labels)} ({sum(len(q.get('answers', [])) for q in queries)} answers, "
              f"{sum(len(q.get('partly_answers', [])) for q in queries)} partly), "
              f"{sum(labels) / len(labels):.2f} per query")
    if errors:
        for e in errors:
            print("FAIL: " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
