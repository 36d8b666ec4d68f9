#!/usr/bin/env node
// Proves the local x402 stack (stack.mjs) with hand-written clients:
//   (a) JavaScript: @x402/fetch + @x402/evm + viem/accounts,
//   (b) Python: PyPI x402 with requests (venv at target/x402-venv),
//   (c) plain curl of each route unpaid (the 402 must state the configured terms).
// Each paid call must answer 200, reach the seller with the method, params and
// JSON types sent, and move exactly `amount` from the payer to payTo. A client
// whose listed terms differ from the seller's live ones must refuse to pay.
//
//   node tests/x402/prove.mjs            (exit 0 only if every check passes)
//
// The client snippets are written to target/x402-prove/ and run as separate
// processes, the way a test would run what the site prints.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

import {
  createPublicClient,
  createWalletClient,
  defineChain,
  domainSeparator,
  http as viemHttp,
  parseAbi,
  parseEventLogs,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const WORK = path.join(ROOT, "target", "x402-prove");
const PYTHON = process.env.X402_PYTHON ?? path.join(ROOT, "target", "x402-venv", "bin", "python");
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
// A token that is not in the SDKs' default-asset tables (any address works: the stack writes the token there).
const OTHER_TOKEN = "0x1234567890AbcdEF1234567890aBcdef12345678";
const addr = (byte) => `0x${byte.repeat(20)}`;

// One seller per case; each pays a distinct payTo so balance deltas are its own.
const CASES = [
  {
    id: "v2-get-query",
    seller: { x402Version: 2, method: "GET", path: "/v2/search", network: "eip155:8453", amount: "10000", payTo: addr("a1") },
    request: { path: "/v2/search", query: [["q", "espresso bar"], ["limit", "5"], ["tag", "a"], ["tag", "b"]] },
    expect: { params: {}, query: { q: "espresso bar", limit: "5", tag: ["a", "b"] } },
  },
  {
    id: "v2-post-json",
    seller: { x402Version: 2, method: "POST", path: "/v2/orders/:region", network: "eip155:8453", amount: "25000", payTo: addr("a2") },
    request: {
      path: "/v2/orders/eu-west",
      json: { quantity: 3, express: true, note: "leave at the door", discount: 0.5, tags: ["gift", "fragile"], coupon: null },
    },
    expect: { params: { region: "eu-west" }, query: {}, contentType: "application/json" },
  },
  {
    id: "v2-post-form",
    seller: { x402Version: 2, method: "POST", path: "/v2/subscribe", network: "eip155:8453", amount: "1", payTo: addr("a3") },
    request: { path: "/v2/subscribe", form: { email: "ada@example.org", plan: "pro", seats: "2" } },
    expect: { params: {}, query: {}, contentType: "application/x-www-form-urlencoded" },
  },
  {
    id: "v2-post-multipart",
    seller: { x402Version: 2, method: "POST", path: "/v2/upload", network: "eip155:8453", amount: "3000", payTo: addr("a4") },
    request: { path: "/v2/upload", multipart: { title: "hello world", count: "2" } },
    expect: { params: {}, query: {}, contentType: "multipart/form-data" },
  },
  {
    id: "v2-get-header",
    seller: { x402Version: 2, method: "GET", path: "/v2/reports/:reportId", network: "eip155:8453", amount: "990000", payTo: addr("a5") },
    request: { path: "/v2/reports/r-42", headers: { "X-Api-Key": "demo-key-123" } },
    expect: { params: { reportId: "r-42" }, query: {} },
  },
  {
    id: "v1-get",
    seller: { x402Version: 1, method: "GET", path: "/v1/quote/:symbol", network: "base", amount: "2500", payTo: addr("b1") },
    request: { path: "/v1/quote/ETH", query: [["currency", "EUR"]] },
    expect: { params: { symbol: "ETH" }, query: { currency: "EUR" } },
  },
  {
    id: "v1-post-json",
    seller: { x402Version: 1, method: "POST", path: "/v1/translate", network: "base", amount: "7000", payTo: addr("b2") },
    request: { path: "/v1/translate", json: { text: "hello", count: 2, formal: false } },
    expect: { params: {}, query: {}, contentType: "application/json" },
  },
  // Above the SDKs' default $1 spend cap, and a token the SDKs do not know:
  // paid only because the snippet allows the listed asset up to the listed amount.
  {
    id: "v2-over-1usd",
    seller: { x402Version: 2, method: "GET", path: "/v2/premium", network: "eip155:8453", amount: "2500000", payTo: addr("d1") },
    request: { path: "/v2/premium" },
    expect: { params: {}, query: {} },
    defaultSpendControlsRefuse: true,
  },
  {
    id: "v1-over-1usd",
    seller: { x402Version: 1, method: "GET", path: "/v1/premium", network: "base", amount: "2500000", payTo: addr("d2") },
    request: { path: "/v1/premium" },
    expect: { params: {}, query: {} },
    defaultSpendControlsRefuse: true,
  },
  {
    id: "v2-other-token",
    seller: { x402Version: 2, method: "GET", path: "/v2/other", network: "eip155:8453", asset: OTHER_TOKEN, amount: "40000", payTo: addr("d3") },
    request: { path: "/v2/other" },
    expect: { params: {}, query: {} },
    defaultSpendControlsRefuse: true,
  },
  {
    id: "v1-other-token",
    seller: { x402Version: 1, method: "GET", path: "/v1/other", network: "base", asset: OTHER_TOKEN, amount: "40000", payTo: addr("d4") },
    request: { path: "/v1/other" },
    expect: { params: {}, query: {} },
    defaultSpendControlsRefuse: true,
  },
  // More than the payer holds: the facilitator refuses at verify, and says why
  // (its diagnosis reads balanceOf/name/version/authorizationState through Multicall3).
  {
    id: "v2-unaffordable",
    unaffordable: true,
    seller: { x402Version: 2, method: "GET", path: "/v2/yacht", network: "eip155:8453", amount: "5000000000", payTo: addr("e1") },
    request: { path: "/v2/yacht" },
  },
  {
    id: "v1-unaffordable",
    unaffordable: true,
    seller: { x402Version: 1, method: "GET", path: "/v1/yacht", network: "base", amount: "5000000000", payTo: addr("e2") },
    request: { path: "/v1/yacht" },
  },
  // Live terms differ from what the directory lists: the client must refuse.
  {
    id: "v2-wrong-payto",
    refuse: true,
    seller: { x402Version: 2, method: "GET", path: "/v2/bait", network: "eip155:8453", amount: "10000", payTo: addr("c1") },
    listedPayTo: addr("c2"),
    request: { path: "/v2/bait" },
  },
  {
    id: "v1-wrong-payto",
    refuse: true,
    seller: { x402Version: 1, method: "GET", path: "/v1/bait", network: "base", amount: "10000", payTo: addr("c3") },
    listedPayTo: addr("c4"),
    request: { path: "/v1/bait" },
  },
];

function stackConfig() {
  return {
    chainId: 8453,
    fund: "1000000000",
    sellers: CASES.map((c) => ({
      id: c.id,
      x402Version: c.seller.x402Version,
      method: c.seller.method,
      path: c.seller.path,
      accepts: [
        {
          scheme: "exact",
          network: c.seller.network,
          asset: assetOf(c),
          amount: c.seller.amount,
          payTo: c.seller.payTo,
          maxTimeoutSeconds: 300,
        },
      ],
      description: `prove ${c.id}`,
      mimeType: "application/json",
    })),
  };
}

const assetOf = (c) => c.seller.asset ?? USDC_BASE;

/** The terms the directory lists for a case (what the client agrees to pay). */
function listedTerms(c) {
  return [{ network: c.seller.network, asset: assetOf(c), amount: c.seller.amount, payTo: c.listedPayTo ?? c.seller.payTo }];
}

// ---------------------------------------------------------------- stack

function startStack(configPath) {
  const child = spawn(process.execPath, [path.join(HERE, "stack.mjs"), configPath], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stderr = [];
  child.stderr.on("data", (d) => {
    stderr.push(d);
    if (process.env.X402_PROVE_VERBOSE === "1") process.stderr.write(d);
  });
  const ready = new Promise((resolve, reject) => {
    let buf = "";
    const timer = setTimeout(() => reject(new Error("stack not ready within 60 s")), 60000);
    child.stdout.on("data", (d) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl !== -1) {
        clearTimeout(timer);
        resolve(JSON.parse(buf.slice(0, nl)));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`stack exited (${code}) before ready:\n${Buffer.concat(stderr).toString()}`));
    });
  });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    ready,
    stderr: () => Buffer.concat(stderr).toString(),
    async stop() {
      child.stdin.end();
      return exited;
    },
  };
}

async function getJson(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

async function balance(stack, asset, owner) {
  const r = await fetch(`${stack.control}/balance?asset=${asset}&owner=${owner}`);
  if (!r.ok) throw new Error(`balance: ${r.status} ${await r.text()}`);
  return BigInt(await r.text());
}

// ---------------------------------------------------------------- snippets

function requestUrl(stack, c) {
  const url = new URL(c.request.path, stack.sellers[c.id]);
  for (const [k, v] of c.request.query ?? []) url.searchParams.append(k, v);
  return url.toString();
}

export function jsSnippet(url, method, listed, request, { spendControls = true } = {}) {
  const headers = { ...(request.headers ?? {}) };
  const init = [`method: ${JSON.stringify(method)}`];
  let prelude = "";
  if (request.json !== undefined) {
    headers["Content-Type"] = "application/json";
    init.push(`headers: ${JSON.stringify(headers)}`);
    init.push(`body: JSON.stringify(${JSON.stringify(request.json)})`);
  } else if (request.form !== undefined) {
    if (Object.keys(headers).length) init.push(`headers: ${JSON.stringify(headers)}`);
    init.push(`body: new URLSearchParams(${JSON.stringify(request.form)})`);
  } else if (request.multipart !== undefined) {
    prelude = `const form = new FormData();\n${Object.entries(request.multipart)
      .map(([k, v]) => `form.append(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
      .join("\n")}\n`;
    if (Object.keys(headers).length) init.push(`headers: ${JSON.stringify(headers)}`);
    init.push("body: form");
  } else if (Object.keys(headers).length) {
    init.push(`headers: ${JSON.stringify(headers)}`);
  }
  return `import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

// Pay only the terms the directory lists for this resource.
const listed = ${JSON.stringify(listed, null, 2)};
const onlyListed = (version, requirements) =>
  requirements.filter((r) =>
    listed.some(
      (l) =>
        r.network === l.network &&
        r.asset.toLowerCase() === l.asset.toLowerCase() &&
        r.payTo.toLowerCase() === l.payTo.toLowerCase() &&
        (r.amount ?? r.maxAmountRequired) === l.amount,
    ),
  );

const client = new x402Client();
registerExactEvmScheme(client, {
  signer: privateKeyToAccount(process.env.EVM_PRIVATE_KEY),
  policies: [onlyListed],
});${spendControls ? `
// The SDK's default spend controls pay only known stablecoins, up to $1:
// allow the listed asset, up to the listed amount.
client.setSpendControls({
  allowedAssets: listed.map((l) => ({ network: l.network, asset: l.asset, maxAmountPerPayment: l.amount })),
});` : ""}
const fetchWithPayment = wrapFetchWithPayment(fetch, client);
${prelude}
const response = await fetchWithPayment(${JSON.stringify(url)}, {
  ${init.join(",\n  ")},
});
console.log(response.status, await response.text());
`;
}

function pyLiteral(value) {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v)}`)
    .join(", ")}}`;
}

export function pySnippet(baseUrl, method, listed, request, { spendControls = true } = {}) {
  const args = [JSON.stringify(method), JSON.stringify(baseUrl)];
  if (request.query?.length) {
    const params = {};
    for (const [k, v] of request.query) {
      if (k in params) params[k] = [].concat(params[k], v);
      else params[k] = v;
    }
    args.push(`params=${pyLiteral(params)}`);
  }
  if (request.headers) args.push(`headers=${pyLiteral(request.headers)}`);
  if (request.json !== undefined) args.push(`json=${pyLiteral(request.json)}`);
  if (request.form !== undefined) args.push(`data=${pyLiteral(request.form)}`);
  if (request.multipart !== undefined) {
    args.push(
      `files={${Object.entries(request.multipart)
        .map(([k, v]) => `${JSON.stringify(k)}: (None, ${JSON.stringify(v)})`)
        .join(", ")}}`,
    );
  }
  const pyListed = listed.map((l) => ({ network: l.network, asset: l.asset, amount: l.amount, pay_to: l.payTo }));
  return `import os

from eth_account import Account
from x402 import x402ClientSync
from x402.http.clients import x402_requests
from x402.mechanisms.evm.exact import register_exact_evm_client

# Pay only the terms the directory lists for this resource.
LISTED = ${pyLiteral(pyListed)}


def only_listed(version, requirements):
    return [
        r
        for r in requirements
        if any(
            r.network == l["network"]
            and r.asset.lower() == l["asset"].lower()
            and r.pay_to.lower() == l["pay_to"].lower()
            and r.get_amount() == l["amount"]
            for l in LISTED
        )
    ]


client = x402ClientSync()
register_exact_evm_client(client, Account.from_key(os.environ["EVM_PRIVATE_KEY"]), policies=[only_listed])${spendControls ? `
# The SDK's default spend controls pay only known stablecoins, up to $1:
# allow the listed asset, up to the listed amount.
client.set_spend_controls(
    {
        "allowed_assets": [
            {"network": l["network"], "asset": l["asset"], "max_amount_per_payment": l["amount"]}
            for l in LISTED
        ]
    }
)` : ""}
session = x402_requests(client)
response = session.request(${args.join(", ")})
print(response.status_code, response.text)
`;
}

function runSnippet(kind, file, source, privateKey) {
  fs.writeFileSync(file, source);
  const [cmd, args] = kind === "js" ? [process.execPath, [file]] : [PYTHON, [file]];
  const t = Date.now();
  const r = spawnSync(cmd, args, {
    env: { ...process.env, EVM_PRIVATE_KEY: privateKey },
    encoding: "utf8",
    timeout: 60000,
  });
  return { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ms: Date.now() - t };
}

// ---------------------------------------------------------------- curl

function curlUnpaid(stack, c) {
  const args = ["-si", "-X", c.seller.method];
  const r = c.request;
  for (const [k, v] of Object.entries(r.headers ?? {})) args.push("-H", `${k}: ${v}`);
  if (r.json !== undefined) args.push("-H", "Content-Type: application/json", "--data-raw", JSON.stringify(r.json));
  for (const [k, v] of Object.entries(r.form ?? {})) args.push("--data-urlencode", `${k}=${v}`);
  for (const [k, v] of Object.entries(r.multipart ?? {})) args.push("-F", `${k}=${v}`);
  args.push(requestUrl(stack, c));
  const out = spawnSync("curl", args, { encoding: "utf8", timeout: 30000 });
  if (out.status !== 0) return { error: `curl exit ${out.status}: ${out.stderr}` };
  const text = out.stdout.replace(/\r\n/g, "\n");
  const split = text.indexOf("\n\n");
  const head = text.slice(0, split).split("\n");
  const body = text.slice(split + 2);
  const status = Number(head[0].split(" ")[1]);
  const headers = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status, headers, body };
}

function checkStatedTerms(c, curl) {
  const problems = [];
  if (curl.error) return [curl.error];
  if (curl.status !== 402) problems.push(`status ${curl.status}, not 402`);
  let requirements;
  if (c.seller.x402Version === 2) {
    const header = curl.headers["payment-required"];
    if (!header) return [...problems, "no PAYMENT-REQUIRED header"];
    const decoded = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    if (decoded.x402Version !== 2) problems.push(`x402Version ${decoded.x402Version}`);
    requirements = decoded.accepts;
  } else {
    const decoded = JSON.parse(curl.body);
    if (decoded.x402Version !== 1) problems.push(`x402Version ${decoded.x402Version}`);
    requirements = decoded.accepts;
  }
  if (!Array.isArray(requirements) || requirements.length !== 1) return [...problems, "not exactly one accept"];
  const [r] = requirements;
  const amount = c.seller.x402Version === 2 ? r.amount : r.maxAmountRequired;
  const want = c.seller;
  if (r.scheme !== "exact") problems.push(`scheme ${r.scheme}`);
  if (r.network !== want.network) problems.push(`network ${r.network}`);
  if (amount !== want.amount) problems.push(`amount ${amount} != ${want.amount}`);
  if (r.asset.toLowerCase() !== assetOf(c).toLowerCase()) problems.push(`asset ${r.asset}`);
  if (r.payTo.toLowerCase() !== want.payTo.toLowerCase()) problems.push(`payTo ${r.payTo}`);
  if (r.maxTimeoutSeconds !== 300) problems.push(`maxTimeoutSeconds ${r.maxTimeoutSeconds}`);
  if (r.extra?.name !== "USD Coin" || r.extra?.version !== "2") problems.push(`extra ${JSON.stringify(r.extra)}`);
  return problems;
}

// ---------------------------------------------------------------- checks

function checkSeen(c, record, kind) {
  const problems = [];
  const r = c.request;
  if (!record) return ["seller saw no paid call"];
  if (record.method !== c.seller.method) problems.push(`method ${record.method}`);
  if (!isDeepStrictEqual(record.params, c.expect.params)) problems.push(`params ${JSON.stringify(record.params)}`);
  if (!isDeepStrictEqual(record.query, c.expect.query)) problems.push(`query ${JSON.stringify(record.query)}`);
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    if (record.headers[k.toLowerCase()] !== v) problems.push(`header ${k}=${record.headers[k.toLowerCase()]}`);
  }
  if (c.expect.contentType && !String(record.contentType).startsWith(c.expect.contentType)) {
    problems.push(`content-type ${record.contentType}`);
  }
  const body = r.json ?? r.form ?? r.multipart ?? null;
  if (!isDeepStrictEqual(record.body, body)) problems.push(`body ${JSON.stringify(record.body)} (${kind})`);
  if (!record.paid) problems.push("not marked paid");
  return problems;
}

const rows = [];
let failures = 0;
function row(client, c, result, detail) {
  if (result !== "ok") failures += 1;
  rows.push({ client, seller: c.id, v: c.seller.x402Version, result, detail });
}

/** Runs one client snippet against case c and checks the call, the seller's record and the token movement. */
async function pay(stack, kind, c, { spendControls }) {
  const payer = stack.payer;
  const asset = assetOf(c);
  const url = requestUrl(stack, c);
  const listed = listedTerms(c);
  const expectRefusal = c.refuse || !spendControls;
  const source =
    kind === "js"
      ? jsSnippet(url, c.seller.method, listed, c.request, { spendControls })
      : pySnippet(new URL(c.request.path, stack.sellers[c.id]).toString(), c.seller.method, listed, c.request, {
          spendControls,
        });
  const file = path.join(WORK, `${c.id}${spendControls ? "" : ".no-spend-controls"}.${kind === "js" ? "mjs" : "py"}`);
  const before = { payer: await balance(stack, asset, payer.address), payTo: await balance(stack, asset, c.seller.payTo) };
  const seenBefore = (await getJson(`${stack.control}/seen/${c.id}?all=1`)).length;
  const journalBefore = (await getJson(`${stack.control}/facilitator`)).length;
  const out = runSnippet(kind, file, source, payer.privateKey);
  const after = { payer: await balance(stack, asset, payer.address), payTo: await balance(stack, asset, c.seller.payTo) };
  const newRecords = (await getJson(`${stack.control}/seen/${c.id}?all=1`)).slice(seenBefore);
  const paid = before.payer - after.payer;
  const received = after.payTo - before.payTo;
  const firstLine = out.stdout.trim().split("\n")[0] ?? "";
  const status = Number(firstLine.split(" ")[0]);
  const label = spendControls ? kind : `${kind}-nsc`;
  const problems = [];
  if (c.unaffordable) {
    const verdicts = (await getJson(`${stack.control}/facilitator`)).slice(journalBefore);
    const reason = verdicts.find((j) => j.op === "verify")?.result?.invalidReason;
    if (status !== 402) problems.push(`status ${firstLine.slice(0, 120) || "(none)"}, not 402; exit ${out.code}`);
    if (reason !== "invalid_exact_evm_insufficient_balance") problems.push(`facilitator verdict ${reason}`);
    if (verdicts.some((j) => j.op === "settle")) problems.push("facilitator was asked to settle");
    if (paid !== 0n || received !== 0n) problems.push(`tokens moved: payer -${paid}, payTo +${received}`);
    if (newRecords.length) problems.push("seller handler was reached");
    row(label, c, problems.length ? "FAIL" : "ok", problems.length ? problems.join("; ") : `402 after verify: ${reason}`);
    return;
  }
  if (expectRefusal) {
    const wanted = c.refuse ? /filtered out by policies/ : /spend_?[cC]ontrols/;
    if (status === 200) problems.push("client paid");
    if (out.code === 0) problems.push(`exit 0: ${firstLine}`);
    if (!wanted.test(out.stderr)) problems.push(`refused for another reason: ${out.stderr.trim().split("\n").pop()}`);
    if (paid !== 0n || received !== 0n) problems.push(`tokens moved: payer -${paid}, payTo +${received}`);
    if (newRecords.length) problems.push("seller handler was reached");
    const why = out.stderr.match(/(All (?:payment )?requirements[^\n]*)/)?.[1] ?? out.stderr.trim().split("\n").pop();
    const reason = why.replace(/["')]+$/, "");
    row(label, c, problems.length ? "FAIL" : "ok", problems.length ? problems.join("; ") : `refused, exit ${out.code}: ${reason.slice(0, 100)}`);
    return;
  }
  if (status !== 200) {
    problems.push(`status ${firstLine.slice(0, 200) || "(none)"}; exit ${out.code}; ${out.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 400)}`);
  }
  if (paid !== BigInt(c.seller.amount)) problems.push(`payer paid ${paid}, not ${c.seller.amount}`);
  if (received !== BigInt(c.seller.amount)) problems.push(`payTo received ${received}, not ${c.seller.amount}`);
  if (newRecords.length !== 1) problems.push(`seller handler reached ${newRecords.length} times`);
  problems.push(...checkSeen(c, newRecords.at(-1), kind));
  const settlement = newRecords.at(-1)?.settlement;
  row(
    label,
    c,
    problems.length ? "FAIL" : "ok",
    problems.length
      ? problems.join("; ")
      : `200, moved ${paid} (${out.ms} ms), tx ${String(settlement?.transaction).slice(0, 12)}… on ${settlement?.network}`,
  );
}

// ---------------------------------------------------------------- the token itself

const TOKEN_ABI = parseAbi([
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function decimals() view returns (uint8)",
  "function balanceOf(address) view returns (uint256)",
  "function authorizationState(address, bytes32) view returns (bool)",
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
  "function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

/** Parts of Token.sol the facilitator does not reach: the `bytes signature` overload, replay, receiveWithAuthorization. */
async function tokenSelfTest(stack) {
  const c = { id: "token", seller: { x402Version: "-" } };
  const chain = defineChain({
    id: stack.chainId,
    name: "x402-local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [stack.rpc] } },
  });
  const transport = viemHttp(stack.rpc);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const payer = privateKeyToAccount(stack.payer.privateKey);
  const wallet = createWalletClient({ chain, transport, account: payer, pollingInterval: 50 });
  const token = { address: USDC_BASE, abi: TOKEN_ABI };
  const read = (functionName, args = []) => publicClient.readContract({ ...token, functionName, args });
  const problems = [];
  const domain = { name: "USD Coin", version: "2", chainId: stack.chainId, verifyingContract: USDC_BASE };
  if ((await read("DOMAIN_SEPARATOR")) !== domainSeparator({ domain })) problems.push("DOMAIN_SEPARATOR differs from EIP-712's");
  if ((await read("name")) !== "USD Coin" || (await read("version")) !== "2" || (await read("decimals")) !== 6) {
    problems.push("name/version/decimals");
  }
  const to = addr("f1");
  const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const now = BigInt(Math.floor(Date.now() / 1000));
  const message = { from: payer.address, to, value: 777n, validAfter: now - 600n, validBefore: now + 600n, nonce };
  const signature = await payer.signTypedData({
    domain,
    primaryType: "TransferWithAuthorization",
    types: {
      TransferWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    message,
  });
  const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature];
  // receiveWithAuthorization must be called by the payee.
  try {
    await publicClient.simulateContract({ ...token, account: payer, functionName: "receiveWithAuthorization", args });
    problems.push("receiveWithAuthorization accepted a caller that is not the payee");
  } catch {
    // expected
  }
  const hash = await wallet.writeContract({ ...token, functionName: "transferWithAuthorization", args });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  const events = parseEventLogs({ abi: TOKEN_ABI, logs: receipt.logs }).map((e) => e.eventName);
  if (receipt.status !== "success") problems.push("bytes-signature transferWithAuthorization failed");
  if (!isDeepStrictEqual(events, ["AuthorizationUsed", "Transfer"])) problems.push(`events ${events}`);
  if ((await read("balanceOf", [to])) !== 777n) problems.push("payee balance");
  if (!(await read("authorizationState", [payer.address, nonce]))) problems.push("nonce not marked used");
  try {
    await publicClient.simulateContract({ ...token, account: payer, functionName: "transferWithAuthorization", args });
    problems.push("replayed authorization accepted");
  } catch (error) {
    if (!/authorization is used/.test(String(error?.message))) problems.push(`replay refused for another reason: ${error?.shortMessage}`);
  }
  row("viem", c, problems.length ? "FAIL" : "ok", problems.length ? problems.join("; ") : "EIP-712 domain, bytes-signature transferWithAuthorization, replay and payee checks");
}

async function main() {
  fs.mkdirSync(WORK, { recursive: true });
  const configPath = path.join(WORK, "config.json");
  fs.writeFileSync(configPath, JSON.stringify(stackConfig(), null, 2));
  const startedAt = Date.now();
  const handle = startStack(configPath);
  try {
    const stack = await handle.ready;
    const startupMs = Date.now() - startedAt;
    console.log(`stack ready in ${startupMs} ms (stack says ${stack.startupMs} ms): rpc ${stack.rpc}, control ${stack.control}`);

    await tokenSelfTest(stack);

    // (c) curl, unpaid: the 402 states exactly the configured terms, and nothing is recorded.
    for (const c of CASES) {
      const problems = checkStatedTerms(c, curlUnpaid(stack, c));
      row("curl", c, problems.length ? "FAIL" : "ok", problems.length ? problems.join("; ") : "402 states the configured terms");
    }

    // (a) JS and (b) Python, paid with the recommended snippet.
    for (const kind of ["js", "py"]) {
      for (const c of CASES) await pay(stack, kind, c, { spendControls: true });
    }
    // The brief's snippet shape without the spend-controls line: the SDKs' default
    // spend controls refuse amounts over $1 and tokens outside their tables.
    for (const kind of ["js", "py"]) {
      for (const c of CASES.filter((x) => x.defaultSpendControlsRefuse)) {
        await pay(stack, kind, c, { spendControls: false });
      }
    }

    const journal = await getJson(`${stack.control}/facilitator`);
    const counts = {};
    for (const j of journal) counts[`${j.op} v${j.x402Version}`] = (counts[`${j.op} v${j.x402Version}`] ?? 0) + 1;
    console.log(`facilitator calls: ${JSON.stringify(counts)}`);
  } catch (error) {
    failures += 1;
    console.error(error?.stack ?? error);
    console.error(handle.stderr());
  } finally {
    const code = await handle.stop();
    if (code !== 0) {
      failures += 1;
      console.error(`stack exited with ${code}`);
    }
  }

  const widths = [6, 17, 1, 4];
  const pad = (s, n) => String(s).padEnd(n);
  console.log(`${pad("client", widths[0])}  ${pad("seller", widths[1])}  ${pad("v", widths[2])}  ${pad("res", widths[3])}  detail`);
  for (const r of rows) {
    console.log(`${pad(r.client, widths[0])}  ${pad(r.seller, widths[1])}  ${pad(r.v, widths[2])}  ${pad(r.result, widths[3])}  ${r.detail}`);
  }
  const passed = rows.filter((r) => r.result === "ok").length;
  console.log(`${passed} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
