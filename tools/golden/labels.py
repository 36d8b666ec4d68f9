"""What the checks of the golden classes share (check_multilingual.py, check_heldout.py):
where the files are, corpus.tsv's listings, and the rules every query's labels keep
(content/explore/golden/RULES.md). Python 3 standard library only."""
import collections
import csv
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GOLDEN = os.path.join(ROOT, "content", "explore", "golden")


def read_corpus():
    """corpus.tsv's rows (id, resource, mime, price_usd, description, schema_fields), by
    resource URL."""
    csv.field_size_limit(sys.maxsize)
    with open(os.path.join(GOLDEN, "corpus.tsv"), newline="", encoding="utf-8") as f:
        return {r["resource"]: r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}


def label_errors(qid, answers, partly, corpus):
    """A query's labels: no URL twice in a list, each a resource of corpus.tsv, none in
    both lists, and 1..40 resources in all."""
    errors = []
    for name, lst in (("answers", answers), ("partly_answers", partly)):
        for url, n in collections.Counter(lst).items():
            if n > 1:
                errors.append(f"{qid}: {url} listed {n} times in {name}")
        for url in lst:
            if url not in corpus:
                errors.append(f"{qid}: {url} ({name}) is not in corpus.tsv")
    for url in sorted(set(answers) & set(partly)):
        errors.append(f"{qid}: {url} is in both answers and partly_answers")
    total = len(set(answers) | set(partly))
    if not 1 <= total <= 40:
        errors.append(f"{qid}: lists {total} resources (must be 1..40)")
    return errors
