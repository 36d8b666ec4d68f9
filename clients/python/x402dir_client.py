#!/usr/bin/env python3
r"""A client of x402dir's static JSON API, Python 3 standard library only.

Written from the published format page ALONE: "The static JSON API, layout 3",
https://x402dir.netlify.app/static-api/3/ (API layout 3, method 1.3.0), as of
2026-12-02. No source code of x402dir was read to write it. Layout 4
(/static-api/4/) adds packs for common words, names split lists in the manifest and
makes parts larger; this client reads neither packs nor `shards.split` (both only save
requests) and reads parts by their `from`, so only API_VERSION changed for it. The
gaps below are closed in the layout 4 page. Method 1.4.0 (same layout) matches on case
folding, where 1.3 lower-cased: its chars.js carries each code point's folding in the
tables this client already read (`LOWER`, `LOWER_MULTI`), so only METHOD_VERSION
changed here (the layout 4 page, Versions). Layout 5 (/static-api/5/) adds a second
page to common words' packs, which this client does not read either: only API_VERSION
changed for it. Method 1.4.1 adds `probe` to records (copied
into rows as they are), `probed` to the snapshot, and the `answered_402` filter, added
here from the page's Filters, Posting lists and Matching sections. Where the page did not
decide something, the choice made here is marked "not in the format page: observed"
(matched to what `x402dir query --json` was seen to print) and listed below.

Gaps found in the page (section -> what was missing -> what this client does). The
differential test (tests/it/python_client.rs, run by `cargo test`) agreed with
`x402dir query --json` on every compared query with the readings below.
  1. Filters, `{known}`: "its id when its name equals its id; else Name (id); else, for
     a test network, Name (id, testnet)" puts `Name (id)` before the testnet case, so
     read literally a testnet is never `Name (id, testnet)`; the example shows it is.
     Read as: name == id -> id; testnet -> "Name (id, testnet)"; else "Name (id)".
  2. Words / chars.js: "a JavaScript module of four lines"; the file also has two `//`
     comment lines first. Only `export const NAME = "...";` lines are read.
  3. Answering a query, step 1 ("Nothing is fetched before this") against Filters and
     static/rules.js ("a client may read [FILTER_ERRORS] there"): a client that takes
     the messages from rules.js must fetch before it can report a malformed filter, and
     the page does not say what to answer when rules.js is missing then. This client
     carries the page's templates and fetches nothing before the filters are read.
  4. Filters, quoting of {value}: the page itself says Python 3.11's unicodedata
     (Unicode 14) cannot reproduce the site's Rust (Unicode 17) for U+1171E and about
     15,000 code points assigned since 14.0 (such as U+088F): this client writes them
     as \u{...} where the command line writes them as themselves. No table of them is
     published (chars.js could carry one). Left as is; the test does not use them.
  5. The answer, `meta.query`: its field list names tokens, dropped_short,
     dropped_over_limit, then token_list_empty; the worked example (and the command
     line) put token_list_empty right after tokens. Equal as parsed JSON either way;
     the example's order is used.
  6. Answering a query, step 5 says "With no token and no filter, every id matches";
     Matching says "with no token and no network, start from every id". The second is
     the one that works (a max_price or exclude_testnets alone cuts the full list).
  7. Printing: the page defines the answer as parsed JSON only; the command line prints
     an answer indented by two spaces and an error on one line. This CLI does the same
     (not in the format page: observed), so its output is byte-identical in practice.

Usage:
  python3 x402dir_client.py --api <URL-or-folder of /<date>/api/>
      [--static <URL-or-folder of /<date>/static/>] [--max-price X] [--network N]
      [--exclude-testnets] [--answered-402] [--limit N] [--offset N] WORDS...
  python3 x402dir_client.py --api ... --batch FILE
      FILE is a JSON list of queries {"text", "max_price", "network", "limit",
      "offset", "exclude_testnets", "answered_402"}; prints a JSON list of {"exit": status, "output": ...}.

Exit status: 0 an answer (empty or not), 2 INVALID_FILTER, 3 SOURCE_UNAVAILABLE.
"""

import argparse
import bisect
import hashlib
import json
import os
import re
import sys
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from fractions import Fraction

API_VERSION = 5
METHOD_VERSION = "1.4.1"
MIN_TOKEN_CHARS = 2
MAX_TOKENS = 8
DEFAULT_LIMIT = 10
MAX_LIMIT = 50
LIMIT_MAX_DIGITS = 3
MAX_OFFSET = 1000000
OFFSET_MAX_DIGITS = 7
MAX_NETWORK_CHARS = 100
MAX_DECIMALS = 18
MAX_DIGITS = 30
TOKEN_FILE_MAX_BYTES = 64
NETWORK_KEY = "@network:{network}"
TESTNETS_ONLY_KEY = "@testnets-only"
ANSWERED_402_KEY = "@answered-402"

FILTER_ERRORS = {
    "limit": "invalid limit {value}: expected a whole number from 1 to 50 (default 10)",
    "offset": "invalid offset {value}: expected a whole number from 0 to 1000000 (default 0)",
    "max_price": "invalid max_price {value}: expected a non-negative decimal number of USD such as 0.01 "
    "or $0.01 (at most 18 decimal places, no sign, no exponent)",
    "network": "invalid network {value}: expected a network's name (Base), legacy name (base) or "
    "CAIP-2 id (eip155:8453), at most 100 characters",
    "unknown_network": "unknown network {value}: the networks in this snapshot are {known}; give a name, "
    "legacy name or CAIP-2 id",
    "no_networks": "unknown network {value}: no listing in this snapshot names a network",
}

RULE_NO_TOKENS = "no usable query token, so every ranked resource is listed in browse order"
RULE_TOKENS = (
    "every token ({tokens}) must occur as a whole word in the description, service name, URL or tags; "
    "no stemming, synonyms or partial words"
)
RULE_MAX_PRICE = "lowest USD-stablecoin price at most {max_price} per call"
RULE_NETWORK = "accepts payment on network {network}"
RULE_EXCLUDE_TESTNETS = "accepts payment on a network that is not a test network"
RULE_ANSWERED_402 = "answered 402 when the snapshot's probe asked it"
NOT_PROBED = (
    "answered_402 needs a probed snapshot: the snapshot of {date} was not probed, so no listing's live 402 "
    "is known; leave the filter out, or ask a snapshot whose manifest names a probe"
)
RULE_ORDER = (
    "ordered by match_score, then unique_payers_30d, then calls_30d (each descending), then resource URL"
)
RULE_FIRST = "first {limit} returned"
RULE_FROM = "{limit} returned from place {from}"
RULE_JOINED_BY = "; "

# "Trimmed": spaces, tabs, line feeds, carriage returns and form feeds at either end.
TRIM = " \t\n\r\x0c"


class QueryError(Exception):
    def __init__(self, code, message, fix=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.fix = fix

    def envelope(self):
        err = {"code": self.code, "message": self.message}
        if self.fix is not None:
            err["fix"] = self.fix
        return {"error": err}

    def exit_status(self):
        return 2 if self.code == "INVALID_FILTER" else 3


def unavailable(message, fix):
    return QueryError("SOURCE_UNAVAILABLE", message, fix)


# ---------------------------------------------------------------- sources


class Source:
    """A folder on disk or an http(s) address; `get(rel)` is parsed JSON or None for 404."""

    def __init__(self, base):
        self.base = base
        self.is_url = base.startswith("http://") or base.startswith("https://")
        self.cache = {}

    def text(self, rel):
        if rel in self.cache:
            return self.cache[rel]
        if self.is_url:
            url = urllib.parse.urljoin(self.base if self.base.endswith("/") else self.base + "/", rel)
            try:
                with urllib.request.urlopen(url, timeout=30) as resp:
                    value = resp.read().decode("utf-8")
            except urllib.error.HTTPError as e:
                if e.code == 404:
                    value = None
                else:
                    raise unavailable(f"{url} answered HTTP {e.code}", "try again later, or use another copy of the site")
            except (urllib.error.URLError, OSError) as e:
                raise unavailable(f"{url} could not be fetched: {e}", "check the address and the network")
        else:
            path = os.path.join(self.base, *rel.split("/"))
            try:
                with open(path, "rb") as f:
                    value = f.read().decode("utf-8")
            except FileNotFoundError:
                value = None
            except (OSError, UnicodeDecodeError) as e:
                raise unavailable(f"{path} could not be read: {e}", "check the folder")
        self.cache[rel] = value
        return value

    def json(self, rel):
        text = self.text(rel)
        if text is None:
            return None
        try:
            return json.loads(text)
        except ValueError as e:
            raise unavailable(f"{rel} is not JSON: {e}", "rebuild or re-fetch the snapshot's folder")

    def promised(self, rel):
        value = self.json(rel)
        if value is None:
            raise unavailable(
                f"{rel} is missing from {self.base}, though the manifest promises it",
                "rebuild the snapshot's folder, or use another copy of the site",
            )
        return value


def static_of(api):
    """The snapshot's static/ folder beside its api/ folder."""
    trimmed = api.rstrip("/")
    parent = trimmed.rsplit("/", 1)[0] if "/" in trimmed else "."
    return parent + "/static/"


# ---------------------------------------------------------------- character tables


def b36(s):
    return -int(s[1:], 36) if s.startswith("-") else int(s, 36)


class Chars:
    def __init__(self, text):
        consts = dict(re.findall(r'^export const ([A-Z_]+) = "([^"]*)";', text, re.M))
        for need in ("WORD", "LOWER", "LOWER_MULTI"):
            if need not in consts:
                raise unavailable(f"chars.js has no {need}", "rebuild the snapshot's static/ folder")
        self.unicode_version = consts.get("UNICODE_VERSION")
        self.starts, self.ends = [], []
        end = 0
        for item in filter(None, consts["WORD"].split(",")):
            gap, length = (b36(x) for x in item.split("."))
            start = end + gap
            end = start + length
            self.starts.append(start)
            self.ends.append(end)
        # Each code point's case folding (the tables keep layout 4's names).
        self.lower = {}
        start = 0
        for item in filter(None, consts["LOWER"].split(",")):
            gap, count, stride, delta = (b36(x) for x in item.split("."))
            start += gap
            for k in range(count):
                cp = start + k * stride
                self.lower[cp] = [cp + delta]
        for item in filter(None, consts["LOWER_MULTI"].split(",")):
            cp, targets = item.split(":")
            self.lower[b36(cp)] = [b36(t) for t in targets.split(".")]

    def is_word(self, cp):
        i = bisect.bisect_right(self.starts, cp) - 1
        return i >= 0 and cp < self.ends[i]

    def words(self, text):
        out, word = [], []
        for ch in text:
            cp = ord(ch)
            for low in self.lower.get(cp, (cp,)):
                if self.is_word(low):
                    word.append(chr(low))
                elif word:
                    out.append("".join(word))
                    word = []
        if word:
            out.append("".join(word))
        return out


def tokens_of(words):
    seen, tokens, short, over = set(), [], [], []
    for w in words:
        if w in seen:
            continue
        seen.add(w)
        if len(w) < MIN_TOKEN_CHARS:
            short.append(w)
        elif len(tokens) >= MAX_TOKENS:
            over.append(w)
        else:
            tokens.append(w)
    return tokens, short, over


# ---------------------------------------------------------------- filters

# The 55 Grapheme_Extend code points that are not Mn/Me in Python 3.11's unicodedata.
EXTRA_ESCAPED = {
    int(h, 16)
    for h in (
        "09BE 09D7 0B3E 0B57 0BBE 0BD7 0CC0 0CC2 0CC7 0CC8 0CCA 0CCB 0CD5 0CD6 0D3E 0D57 0DCF 0DDF "
        "1715 1734 1B35 1B3B 1B3D 1B43 1B44 1BAA 1BF2 1BF3 302E 302F A953 A9C0 FF9E FF9F 111C0 "
        "11235 1133E 1134D 11357 114B0 114BD 115AF 116B6 11930 1193D 16FF0 16FF1 1D165 1D166 "
        "1D16D 1D16E 1D16F 1D170 1D171 1D172"
    ).split()
}
ESCAPED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Mn", "Me"}
SIMPLE_ESCAPES = {0: "\\0", 9: "\\t", 10: "\\n", 13: "\\r", 34: '\\"', 92: "\\\\"}


def quoted(text):
    """Rust's `{:?}` of a string, as the page's Filters section describes it."""
    out = ['"']
    for ch in text:
        cp = ord(ch)
        if cp in SIMPLE_ESCAPES:
            out.append(SIMPLE_ESCAPES[cp])
            continue
        cat = unicodedata.category(ch)
        if cat in ESCAPED_CATEGORIES or (cat == "Zs" and cp != 0x20) or cp in EXTRA_ESCAPED:
            out.append("\\u{%x}" % cp)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def invalid(case, value, **more):
    return QueryError("INVALID_FILTER", FILTER_ERRORS[case].format(value=quoted(value), **more))


def trim(s):
    return s.strip(TRIM)


DIGITS = re.compile(r"[0-9]+")
DECIMAL = re.compile(r"([0-9]*)(?:\.([0-9]+))?")


def read_count(text, case, max_digits, lo, hi, default):
    if text is None:
        return default
    if not (DIGITS.fullmatch(text) and len(text) <= max_digits and lo <= int(text) <= hi):
        raise invalid(case, text)
    return int(text)


def read_price(text):
    """The max_price filter: (exact Fraction, shortest decimal string), or None."""
    if text is None:
        return None
    s = trim(text)
    if s.startswith("$"):
        s = trim(s[1:])
    elif s.endswith("$"):
        s = trim(s[:-1])
    elif s[-4:].lower() == "usdc":
        s = trim(s[:-4])
    elif s[-3:].lower() == "usd":
        s = trim(s[:-3])
    m = DECIMAL.fullmatch(s)
    if not m:
        raise invalid("max_price", text)
    whole, frac = m.group(1), m.group(2) or ""
    if not whole and not frac:
        raise invalid("max_price", text)
    if len(frac) > MAX_DECIMALS or len(whole) + len(frac) > MAX_DIGITS:
        raise invalid("max_price", text)
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    shortest = whole + ("." + frac if frac else "")
    return Fraction(shortest), shortest


def read_network(text):
    if text is None:
        return None
    s = trim(text)
    if not (1 <= len(s) <= MAX_NETWORK_CHARS) or any(ord(c) < 0x20 or ord(c) == 0x7F for c in s):
        raise invalid("network", text)
    return s


def spelling_key(text):
    out, sep = [], False
    for c in text:
        if c in " \t\n\r\x0c_-":
            sep = True
            continue
        if sep and out:
            out.append("-")
        sep = False
        out.append(c.lower() if "A" <= c <= "Z" else c)
    return "".join(out)


def describe_network(entry):
    # not in the format page (ambiguous order of its clauses): name == id -> id; a test
    # network -> "Name (id, testnet)"; else "Name (id)" (GAPS 1).
    if entry["name"] == entry["id"]:
        return entry["id"]
    if entry.get("testnet"):
        return f"{entry['name']} ({entry['id']}, testnet)"
    return f"{entry['name']} ({entry['id']})"


def resolve_network(text, manifest):
    known = manifest["networks"]["known"]
    for entry in known:
        if entry["id"] == text:
            return entry["id"]
    key = spelling_key(text)
    for entry in known:
        names = [entry["id"], entry.get("legacy"), entry["name"]]
        if any(n is not None and spelling_key(n) == key for n in names):
            return entry["id"]
    named = [e for e in known if e.get("resources", 0) > 0]
    if not named:
        raise invalid("no_networks", text)
    raise invalid("unknown_network", text, known=", ".join(describe_network(e) for e in named))


# ---------------------------------------------------------------- files of the folder


def fnv1a32(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def token_file(token):
    raw = token.encode("utf-8")
    if len(raw) <= TOKEN_FILE_MAX_BYTES and re.fullmatch(rb"[a-z0-9]+", raw):
        return token
    if len(raw) <= TOKEN_FILE_MAX_BYTES:
        return "u-" + raw.hex()
    return "h-" + hashlib.sha256(raw).hexdigest()


def decode_postings(arr):
    out, ident = [], 0
    for i, n in enumerate(arr):
        ident = n // 2 if i == 0 else ident + n // 2
        out.append((ident, n % 2))
    return out


class Snapshot:
    def __init__(self, api, static=None):
        self.api = Source(api)
        self.static = Source(static if static is not None else static_of(api))
        self._manifest = None
        self._chars = None

    def manifest(self):
        if self._manifest is None:
            m = self.api.json("manifest.json")
            if m is None:
                raise unavailable(f"no manifest.json in {self.api.base}", "name a snapshot's api/ folder (/<date>/api/)")
            if not isinstance(m, dict) or m.get("api_version") != API_VERSION:
                raise unavailable(
                    f"the folder's API layout is {m.get('api_version') if isinstance(m, dict) else None!r}; "
                    f"this client reads layout {API_VERSION}",
                    "use a client written for that layout (its page is /static-api/<layout>/)",
                )
            version = (m.get("method") or {}).get("version")
            # A patch only adds fields, which rows copy as they are (layout 4 page, Versions).
            if not isinstance(version, str) or version.split(".")[:2] != METHOD_VERSION.split(".")[:2]:
                raise unavailable(
                    f"the folder was built under method {version!r}; this client answers by method {METHOD_VERSION}",
                    "use a client written for that method version",
                )
            self._manifest = m
        return self._manifest

    def chars(self):
        if self._chars is None:
            text = self.static.text("chars.js")
            if text is None:
                raise unavailable(f"no chars.js in {self.static.base}", "name the snapshot's static/ folder with --static")
            self._chars = Chars(text)
        return self._chars

    def postings(self, key):
        """The key's posting list as [(id, flag)], ascending; [] when it has none."""
        m = self.manifest()
        shards = m["shards"]
        bucket = fnv1a32(key.encode("utf-8")) % shards["buckets"]
        shard = self.api.promised(shards["path"].replace("{bucket}", str(bucket)))
        value = shard.get(key) if isinstance(shard, dict) else None
        if value is None:
            return []
        if isinstance(value, list):
            return decode_postings(value)
        out = []
        for part in range(len(value["from"])):
            rel = shards["parts_path"].replace("{token_file}", token_file(key)).replace("{part}", str(part))
            out.extend(decode_postings(self.api.promised(rel)))
        return out

    def record(self, ident):
        rec = self.manifest()["records"]
        block = self.api.promised(rec["path"].replace("{block}", str(ident // rec["block"])))
        return block[ident % rec["block"]]

    def price_ladder(self):
        ladder = self.api.promised(self.manifest()["prices"]["path"])["ladder"]
        out = []
        for price, deltas in ladder:
            ids, ident = [], 0
            for i, d in enumerate(deltas):
                ident = d if i == 0 else ident + d
                ids.append(ident)
            out.append((Fraction(price), ids))
        return out


# ---------------------------------------------------------------- the answer


def answer(snap, text, max_price=None, network=None, exclude_testnets=False, answered_402=False, limit=None, offset=None):
    # 1. the filters, before anything is fetched
    lim = read_count(limit, "limit", LIMIT_MAX_DIGITS, 1, MAX_LIMIT, DEFAULT_LIMIT)
    off = read_count(offset, "offset", OFFSET_MAX_DIGITS, 0, MAX_OFFSET, 0)
    price = read_price(max_price)
    net_text = read_network(network)
    # 2. the manifest
    m = snap.manifest()
    # 3. the network
    net = resolve_network(net_text, m) if net_text is not None else None
    if answered_402 and m["snapshot"].get("probed") is None:
        raise QueryError("INVALID_FILTER", NOT_PROBED.replace("{date}", m["snapshot"]["date"]))
    # 4. tokens
    tokens, short, over = tokens_of(snap.chars().words(text))
    # 5. matching
    keys = list(tokens) + ([NETWORK_KEY.replace("{network}", net)] if net is not None else [])
    if answered_402:
        keys.append(ANSWERED_402_KEY)
    if keys:
        scores = None
        for i, key in enumerate(keys):
            is_token = i < len(tokens)
            lst = snap.postings(key)
            here = {ident: (flag if is_token else 0) for ident, flag in lst}
            if scores is None:
                scores = here
            else:
                scores = {ident: s + here[ident] for ident, s in scores.items() if ident in here}
    else:
        scores = {ident: 0 for ident in range(m["counts"]["entries"])}
    if price is not None:
        allowed = set()
        for rung_price, ids in snap.price_ladder():
            if rung_price <= price[0]:
                allowed.update(ids)
        scores = {i: s for i, s in scores.items() if i in allowed}
    if exclude_testnets:
        for ident, _ in snap.postings(TESTNETS_ONLY_KEY):
            scores.pop(ident, None)
    # 6. order and paging
    ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    page = ordered[off : off + lim]
    # 7. rows
    rows = []
    for ident, score in page:
        row = {}
        for k, v in snap.record(ident).items():
            if k in ("id", "slug"):
                continue
            row[k] = v
            if k == "networks":
                row["match_score"] = score
        rows.append(row)
    # 8. the envelope
    parts = []
    if tokens:
        parts.append(RULE_TOKENS.replace("{tokens}", ", ".join(f'"{t}"' for t in tokens)))
    else:
        parts.append(RULE_NO_TOKENS)
    if price is not None:
        parts.append(RULE_MAX_PRICE.replace("{max_price}", price[1]))
    if net is not None:
        parts.append(RULE_NETWORK.replace("{network}", net))
    if exclude_testnets:
        parts.append(RULE_EXCLUDE_TESTNETS)
    if answered_402:
        parts.append(RULE_ANSWERED_402)
    parts.append(RULE_ORDER)
    if off == 0:
        parts.append(RULE_FIRST.replace("{limit}", str(lim)))
    else:
        parts.append(RULE_FROM.replace("{limit}", str(lim)).replace("{from}", str(off + 1)))
    meta = {
        "method": m["method"],
        "segments": {"version": m["segments"]["version"]},
        "screening": m["screening"],
        "assets": m["assets"],
        "snapshot": m["snapshot"],
        "limits": m["limits"],
        "query": {
            "text": text,
            "tokens": tokens,
            "token_list_empty": not tokens,
            "dropped_short": short,
            "dropped_over_limit": over,
            "filters": {
                "max_price": price[1] if price is not None else None,
                "network": net,
                "exclude_testnets": bool(exclude_testnets),
                "answered_402": bool(answered_402),
                "limit": lim,
                "offset": off,
            },
            "rule": RULE_JOINED_BY.join(parts),
        },
        "total_matched": len(ordered),
        "returned": len(rows),
    }
    return {"meta": meta, "data": rows}


def run(snap, q):
    """One query (a dict) to (exit status, JSON output)."""
    try:
        out = answer(
            snap,
            q.get("text", ""),
            max_price=q.get("max_price"),
            network=q.get("network"),
            exclude_testnets=bool(q.get("exclude_testnets", False)),
            answered_402=bool(q.get("answered_402", False)),
            limit=q.get("limit"),
            offset=q.get("offset"),
        )
        return 0, out
    except QueryError as e:
        return e.exit_status(), e.envelope()


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def main(argv=None):
    p = argparse.ArgumentParser(description="Answer a query from an x402dir snapshot's static JSON API (layout 5).")
    p.add_argument("--api", required=True, help="URL or folder of /<date>/api/")
    p.add_argument("--static", help="URL or folder of /<date>/static/ (default: beside --api)")
    p.add_argument("--max-price")
    p.add_argument("--network")
    p.add_argument("--exclude-testnets", action="store_true")
    p.add_argument("--answered-402", action="store_true")
    p.add_argument("--limit")
    p.add_argument("--offset")
    p.add_argument("--batch", help="a JSON file of queries; prints a JSON list of results")
    p.add_argument("words", nargs="*")
    args = p.parse_args(argv)
    snap = Snapshot(args.api, args.static)
    if args.batch:
        with open(args.batch, encoding="utf-8") as f:
            queries = json.load(f)
        results = []
        for q in queries:
            status, out = run(snap, q)
            results.append({"exit": status, "output": out})
        sys.stdout.write(dumps(results) + "\n")
        return 0
    status, out = run(
        snap,
        {
            "text": " ".join(args.words),
            "max_price": args.max_price,
            "network": args.network,
            "exclude_testnets": args.exclude_testnets,
            "answered_402": args.answered_402,
            "limit": args.limit,
            "offset": args.offset,
        },
    )
    # Printed as the command line prints it: an answer indented by two spaces, an error
    # on one line (not in the format page: observed; only the parsed JSON is the format).
    if status == 0:
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(dumps(out) + "\n")
        sys.stderr.write(f"error: {out['error']['message']}\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
