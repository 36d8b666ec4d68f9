#!/usr/bin/env python3
"""Labels for golden queries that restate an already-labelled need (content/explore/golden/RULES.md,
"Restated needs").

A query in another language or with typos restates a labelled query's need: it takes that
query's labels unchanged. A query with stated constraints (a price cap, a network, no test
networks, "cheapest") takes the labels of its need, less the listings that break a constraint,
read from the listing's published facts (lowest USD price, networks, test networks), never from
any ranking. "cheapest": the need's answers at the lowest known price answer it; every other
labelled listing that meets the other constraints partly answers it.

    python3 tools/golden/derive.py RECORDS_DIR < restated.json > derived.json

RECORDS_DIR is `api/records` of the golden snapshot's built folder (its published facts).
"""
import glob
import json
import sys
from decimal import Decimal

records_dir = sys.argv[1]
facts = {}
for f in glob.glob(f"{records_dir}/*.json"):
    for r in json.load(open(f)):
        facts[r["resource"]] = {
            "price": None if r["min_price_usd"] is None else Decimal(r["min_price_usd"]),
            "networks": set(r["networks"]),
            "testnets_only": all(p["testnet"] for p in r["prices"]) if r["prices"] else False,
        }

golden = json.load(open("content/explore/golden/golden.json"))
base = {q["id"]: q for q in golden["queries"]}
spec = json.load(sys.stdin)
out = []
for q in spec["queries"]:
    need = base[q["need"]]
    c = q.get("constraints", {})

    def ok(url):
        f = facts[url]
        if "max_price" in c and (f["price"] is None or f["price"] > Decimal(c["max_price"])):
            return False
        if "network" in c and c["network"] not in f["networks"]:
            return False
        if c.get("exclude_testnets") and f["testnets_only"]:
            return False
        return True

    answers = [u for u in need["answers"] if ok(u)]
    partly = [u for u in need["partly_answers"] if ok(u)]
    if c.get("cheapest"):
        priced = [facts[u]["price"] for u in answers if facts[u]["price"] is not None]
        low = min(priced)
        partly = sorted(partly + [u for u in answers if facts[u]["price"] != low])
        answers = [u for u in answers if facts[u]["price"] == low]
    if not answers and not partly:
        sys.exit(f"{q['id']}: no labelled listing meets the constraints")
    note = f"restates {need['id']} ({need['query']!r})"
    if c:
        note += "; constraints " + json.dumps(c, sort_keys=True) + " read from each listing's published facts"
    out.append({"id": q["id"], "class": q["class"], "query": q["query"], "note": note,
                "answers": answers, "partly_answers": partly})
json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
print()
