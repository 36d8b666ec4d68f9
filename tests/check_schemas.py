"""Validate a built site's JSON against the published JSON Schemas (content/schema/).

Usage: python3 tests/check_schemas.py PUBLIC_DIR [EXPLORE_ANSWERS_DIR]
Checks every manifest, every record block and pack, and every single-token answer of every dated
folder, and every explore envelope (*.json) in EXPLORE_ANSWERS_DIR when given. Exits non-zero, naming the file and the failing path, on the first mismatch.

A pack repeats records of the blocks (a record is in the pack of each of its common words), so
each distinct record is validated once: validity depends on the value alone, and the same value
seen again is the same answer. That took the check of the real snapshots from 81 to 26 s.
"""
import json
import pathlib
import re
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource


def main(public: pathlib.Path, explore: pathlib.Path | None) -> int:
    schemas = {p.name: json.loads(p.read_text()) for p in (public / "schema").glob("*.json")}
    registry = Registry().with_resources(
        (f"/schema/{name}", Resource.from_contents(s)) for name, s in schemas.items()
    )
    validators = {
        name: Draft202012Validator(schemas[f"{name}.schema.json"], registry=registry)
        for name in ("answer", "record-block", "manifest", "explore-answer")
    }
    for v in validators.values():
        Draft202012Validator.check_schema(v.schema)
    block = schemas["record-block.schema.json"]
    # The shortcut below is right only while a block is an array of records and nothing more.
    if block.get("items") != {"$ref": "record.schema.json"} or {"prefixItems", "contains", "unevaluatedItems"} & block.keys():
        print("record-block.schema.json is no longer an array of record.schema.json: check_schemas.py must change", file=sys.stderr)
        return 1
    array = Draft202012Validator({k: v for k, v in block.items() if k not in ("items", "$id")} | {"items": True})
    record = Draft202012Validator(schemas["record.schema.json"], registry=registry)
    valid_records = set()

    def first_error(kind, doc):
        """The first error of `doc` as (path prefix, error), or None. A record block or pack is
        asked as an array, then each record not already seen valid."""
        if kind != "record-block":
            errors = sorted(validators[kind].iter_errors(doc), key=lambda e: list(e.path))
            return ([], errors[0]) if errors else None
        for e in array.iter_errors(doc):
            return ([], e)
        for i, item in enumerate(doc):
            key = json.dumps(item, sort_keys=True)
            if key in valid_records:
                continue
            errors = sorted(record.iter_errors(item), key=lambda e: list(e.path))
            if errors:
                return ([i], errors[0])
            valid_records.add(key)
        return None

    checked = 0
    for day in sorted(p for p in public.iterdir() if re.fullmatch(r"\d{4}-\d{2}-\d{2}", p.name)):
        api = day / "api"
        groups = [("manifest", [api / "manifest.json"]), ("record-block", api.glob("records/*.json")), ("record-block", api.glob("packs/*.json")), ("answer", api.glob("q/*.json"))]
        for kind, files in groups:
            for f in files:
                error = first_error(kind, json.loads(f.read_text()))
                if error:
                    prefix, e = error
                    print(f"{f}: {kind} schema: {'/'.join(map(str, prefix + list(e.path)))}: {e.message}", file=sys.stderr)
                    return 1
                checked += 1
    if explore is not None:
        files = sorted(explore.glob("*.json"))
        if not files:
            print(f"no explore envelopes in {explore}", file=sys.stderr)
            return 1
        for f in files:
            error = first_error("explore-answer", json.loads(f.read_text()))
            if error:
                _, e = error
                print(f"{f}: explore-answer schema: {'/'.join(map(str, e.path))}: {e.message}", file=sys.stderr)
                return 1
            checked += 1
    if checked == 0:
        print("no JSON found to check", file=sys.stderr)
        return 1
    print(f"{checked} JSON files valid against the schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None))
