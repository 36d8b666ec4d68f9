"""Writes a Hugo site with one markdown page per listing of an x402dir snapshot: the same
resources, text and figures as x402dir's resource pages, so that Hugo renders the same
number of pages from equivalent content (bench/run).

Usage: python3 bench/hugo_site.py SNAPSHOT OUT_DIR
"""
import json
import pathlib
import sys

LAYOUT_BASE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>
<link rel="stylesheet" href="/style.css"></head><body><main>{{ block "main" . }}{{ end }}</main></body></html>"""
LAYOUT_SINGLE = """{{ define "main" }}<h1>{{ .Title }}</h1>
<table><tr><th>Payers (30 d)</th><td>{{ .Params.payers }}</td></tr><tr><th>Calls (30 d)</th><td>{{ .Params.calls }}</td></tr>
<tr><th>Lowest USD price</th><td>{{ .Params.price }}</td></tr></table>{{ .Content }}{{ end }}"""
LAYOUT_LIST = """{{ define "main" }}<h1>{{ .Title }}</h1><ol>{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ol>
{{ with .Paginator }}{{ if .HasNext }}<a href="{{ .Next.URL }}">next</a>{{ end }}{{ end }}{{ end }}"""


def main(snapshot: str, out: str) -> None:
    root = pathlib.Path(out)
    (root / "layouts" / "_default").mkdir(parents=True, exist_ok=True)
    (root / "content" / "r").mkdir(parents=True, exist_ok=True)
    (root / "config.toml").write_text(
        'baseURL = "https://bench.invalid/"\ntitle = "bench"\npaginate = 50\n'
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n'
    )
    (root / "layouts" / "_default" / "baseof.html").write_text(LAYOUT_BASE)
    (root / "layouts" / "_default" / "single.html").write_text(LAYOUT_SINGLE)
    (root / "layouts" / "_default" / "list.html").write_text(LAYOUT_LIST)
    (root / "content" / "r" / "_index.md").write_text('---\ntitle: "Resources"\n---\n')
    lines = pathlib.Path(snapshot).read_text().split("\n")
    count = 0
    for line in lines[2:]:
        line = line.rstrip(",")
        if not line.startswith("{"):
            continue
        item = json.loads(line)
        q = item.get("quality", {})
        accept = (item.get("accepts") or [{}])[0]
        front = {
            "title": item["resource"],
            "payers": q.get("l30DaysUniquePayers"),
            "calls": q.get("l30DaysTotalCalls"),
            "price": accept.get("amount"),
        }
        body = item.get("description") or ""
        limits = "\n".join(f"- limit {i}" for i in range(1, 4))
        (root / "content" / "r" / f"{count}.md").write_text(
            "---\n" + json.dumps(front) + "\n---\n\n" + body + "\n\n" + limits + "\n"
        )
        count += 1
    print(f"{count} pages of markdown in {root}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
