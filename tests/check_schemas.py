"""Validate a built site's JSON against the published JSON Schemas (content/schema/).

Usage: python3 tests/check_schemas.py PUBLIC_DIR [EXPLORE_ANSWERS_DIR]
Checks every manifest, every record block and pack, and every single-token answer of every dated
folder, and every explore envelope (*.json) in EXPLORE_ANSWERS_DIR when given. Exits non-zero, naming the file and the failing path, on the first mismatch.
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
    checked = 0
    for day in sorted(p for p in public.iterdir() if re.fullmatch(r"\d{4}-\d{2}-\d{2}", p.name)):
        api = day / "api"
        groups = [("manifest", [api / "manifest.json"]), ("record-block", api.glob("records/*.json")), ("record-block", api.glob("packs/*.json")), ("answer", api.glob("q/*.json"))]
        for kind, files in groups:
            for f in files:
                errors = sorted(validators[kind].iter_errors(json.loads(f.read_text())), key=lambda e: list(e.path))
                if errors:
                    e = errors[0]
                    print(f"{f}: {kind} schema: {'/'.join(map(str, e.path))}: {e.message}", file=sys.stderr)
                    return 1
                checked += 1
    if explore is not None:
        files = sorted(explore.glob("*.json"))
        if not files:
            print(f"no explore envelopes in {explore}", file=sys.stderr)
            return 1
        for f in files:
            errors = sorted(validators["explore-answer"].iter_errors(json.loads(f.read_text())), key=lambda e: list(e.path))
            if errors:
                e = errors[0]
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
