#!/usr/bin/env node
// A local x402 payment stack made of the official parts, all on 127.0.0.1:
// anvil (npm @foundry-rs/anvil), a USDC-like EIP-3009 token written at each
// listed asset address, the official facilitator (@x402/core + @x402/evm, v1
// and v2) over HTTP, one seller per config entry (@x402/express for
// x402Version 2, x402-express for x402Version 1) and a control endpoint.
//
//   node tests/x402/stack.mjs CONFIG.json [--ignore-stdin]
//
// Prints ONE JSON line on stdout when ready, logs to stderr, and runs until
// stdin closes (unless --ignore-stdin) or SIGTERM/SIGINT. See README.md.

import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import querystring from "node:querystring";
import { fileURLToPath } from "node:url";

import solc from "solc";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http as viemHttp,
  isAddress,
  parseAbi,
  publicActions,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

import { x402Facilitator } from "@x402/core/facilitator";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme as registerFacilitatorEvm } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { EVM_NETWORK_CHAIN_ID_MAP } from "@x402/evm/v1";
import express from "express";
import { paymentMiddleware as paymentMiddlewareV2, x402ResourceServer } from "@x402/express";
import { paymentMiddleware as paymentMiddlewareV1 } from "x402-express";
import { SupportedEVMNetworks as V1_SELLER_NETWORKS } from "x402/types";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11";
// anvil's default accounts (mnemonic "test test ... junk"): #0 settles as the
// facilitator, #1 mints the test tokens.
const ANVIL_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
];
const DEFAULT_EXTRA = { name: "USD Coin", version: "2" };
const TOKEN_ABI = parseAbi([
  "function mint(address to, uint256 value)",
  "function balanceOf(address owner) view returns (uint256)",
]);

const t0 = Date.now();
// stdout carries the one ready line only: whatever the libraries print goes to stderr.
for (const level of ["log", "info", "debug", "warn"]) console[level] = console.error;
const log = (...args) => console.error("[x402-stack]", ...args);
const jsonText = (value) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));

// ---------------------------------------------------------------- config

export function resolveConfig(raw) {
  const fail = (message) => {
    throw new Error(`config: ${message}`);
  };
  if (!raw || typeof raw !== "object") fail("not a JSON object");
  const chainId = raw.chainId ?? 8453;
  if (!Number.isSafeInteger(chainId) || chainId <= 0) fail(`chainId ${chainId} is not a positive integer`);
  const fund = String(raw.fund ?? "1000000000");
  if (!/^\d+$/.test(fund)) fail(`fund ${fund} is not an atomic amount`);
  if (raw.payerPrivateKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(raw.payerPrivateKey)) {
    fail("payerPrivateKey is not a 32-byte hex key");
  }
  if (!Array.isArray(raw.sellers) || raw.sellers.length === 0) fail("sellers must be a non-empty list");
  const ids = new Set();
  const sellers = raw.sellers.map((s, i) => {
    const where = `sellers[${i}]${s && s.id ? ` ("${s.id}")` : ""}`;
    if (!s || typeof s !== "object") fail(`${where} is not an object`);
    const id = String(s.id ?? "");
    if (!/^[A-Za-z0-9_.-]+$/.test(id)) fail(`${where}: id must match [A-Za-z0-9_.-]+`);
    if (ids.has(id)) fail(`${where}: duplicate id`);
    ids.add(id);
    const x402Version = s.x402Version ?? 2;
    if (x402Version !== 1 && x402Version !== 2) fail(`${where}: x402Version must be 1 or 2`);
    const method = String(s.method ?? "GET").toUpperCase();
    if (!["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"].includes(method)) {
      fail(`${where}: unsupported method ${method}`);
    }
    const routePath = String(s.path ?? "");
    if (!routePath.startsWith("/")) fail(`${where}: path must start with /`);
    if (!Array.isArray(s.accepts) || s.accepts.length === 0) fail(`${where}: accepts must be a non-empty list`);
    if (x402Version === 1 && s.accepts.length !== 1) {
      fail(`${where}: x402-express (v1) charges one set of terms per route; give exactly one accept`);
    }
    const accepts = s.accepts.map((a, j) => {
      const at = `${where}.accepts[${j}]`;
      const scheme = a.scheme ?? "exact";
      if (scheme !== "exact") fail(`${at}: only scheme "exact" is served, not ${scheme}`);
      const network = String(a.network ?? "");
      let networkChainId;
      if (x402Version === 2) {
        const m = /^eip155:(\d+)$/.exec(network);
        if (!m) {
          fail(
            `${at}: network "${network}" is not an EVM (eip155) network; only the local anvil chain eip155:${chainId} is served (no local validator for other chains)`,
          );
        }
        networkChainId = Number(m[1]);
      } else {
        networkChainId = EVM_NETWORK_CHAIN_ID_MAP[network];
        if (!networkChainId || !V1_SELLER_NETWORKS.includes(network)) {
          fail(`${at}: v1 network "${network}" is not an EVM network name that x402-express 1.2.0 serves`);
        }
      }
      if (networkChainId !== chainId) {
        fail(
          `${at}: network "${network}" is EVM chain ${networkChainId}, another chain than the local anvil chain ${chainId}; refusing it`,
        );
      }
      const amount = String(a.amount ?? a.maxAmountRequired ?? "");
      if (!/^\d+$/.test(amount)) fail(`${at}: amount "${amount}" is not an atomic integer amount`);
      if (!isAddress(String(a.asset ?? ""), { strict: false })) fail(`${at}: asset is not an EVM address`);
      if (!isAddress(String(a.payTo ?? ""), { strict: false })) fail(`${at}: payTo is not an EVM address`);
      const maxTimeoutSeconds = a.maxTimeoutSeconds ?? 300;
      if (!Number.isSafeInteger(maxTimeoutSeconds) || maxTimeoutSeconds <= 0) fail(`${at}: bad maxTimeoutSeconds`);
      const extra = { ...DEFAULT_EXTRA, ...(a.extra ?? {}) };
      return {
        scheme,
        network,
        asset: getAddress(a.asset),
        amount,
        payTo: getAddress(a.payTo),
        maxTimeoutSeconds,
        extra,
      };
    });
    return {
      id,
      x402Version,
      method,
      path: routePath,
      accepts,
      description: s.description ?? "",
      mimeType: s.mimeType ?? "application/json",
    };
  });
  // One token contract per asset address: all accepts naming it must agree on its EIP-712 domain.
  const assets = new Map();
  for (const s of sellers) {
    for (const a of s.accepts) {
      const known = assets.get(a.asset);
      if (known && (known.name !== a.extra.name || known.version !== a.extra.version)) {
        fail(`asset ${a.asset} is given two EIP-712 domains (${known.name}/${known.version} and ${a.extra.name}/${a.extra.version})`);
      }
      assets.set(a.asset, { name: String(a.extra.name), version: String(a.extra.version) });
    }
  }
  return {
    chainId,
    fund,
    payerPrivateKey: raw.payerPrivateKey,
    sellers,
    assets: Object.fromEntries(assets),
  };
}

// ---------------------------------------------------------------- contracts

function solidityString(value) {
  if (!/^[\x20-\x7e]*$/.test(value) || /["\\]/.test(value)) {
    throw new Error(`EIP-712 domain field ${JSON.stringify(value)} is not plain printable ASCII`);
  }
  return `"${value}"`;
}

/** Compiles Token.sol (with the given EIP-712 name and version) and Multicall3.sol; returns runtime code. */
export function compileContracts(domains) {
  const tokenSource = fs.readFileSync(path.join(HERE, "Token.sol"), "utf8");
  const sources = { "Multicall3.sol": { content: fs.readFileSync(path.join(HERE, "Multicall3.sol"), "utf8") } };
  const keyOf = (d) => `${d.name}\u0000${d.version}`;
  const files = new Map();
  for (const d of domains) {
    if (files.has(keyOf(d))) continue;
    const file = `Token${files.size}.sol`;
    let content = tokenSource;
    for (const [constant, value] of [
      ["NAME", d.name],
      ["VERSION", d.version],
    ]) {
      const re = new RegExp(`(string private constant ${constant} = )"[^"]*";`);
      if (!re.test(content)) throw new Error(`Token.sol: constant ${constant} not found`);
      content = content.replace(re, `$1${solidityString(value)};`);
    }
    sources[file] = { content };
    files.set(keyOf(d), file);
  }
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      outputSelection: { "*": { "*": ["evm.deployedBytecode.object"] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  const code = (file, name) => `0x${out.contracts[file][name].evm.deployedBytecode.object}`;
  return {
    multicall3: code("Multicall3.sol", "Multicall3"),
    token: (d) => code(files.get(keyOf(d)), "Token"),
  };
}

// ---------------------------------------------------------------- anvil

function anvilBinary() {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch] ?? process.arch;
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    const bin = require.resolve(`${pkg}/bin/${exe}`);
    if (fs.existsSync(bin)) return bin;
  } catch {
    // fall through
  }
  throw new Error(`anvil binary not found: npm package ${pkg} (an optional dependency of @foundry-rs/anvil) is not installed`);
}

/**
 * Starts anvil on a free loopback port. It runs under a small sh watchdog that
 * reads our pipe: when this process goes away for any reason (even SIGKILL),
 * the pipe closes and the watchdog kills anvil.
 */
function startAnvil(chainId) {
  const bin = anvilBinary();
  const args = ["--host", "127.0.0.1", "--port", "0", "--chain-id", String(chainId)];
  const child = spawn(
    "/bin/sh",
    ["-c", 'exec 3<&0; "$0" "$@" </dev/null & pid=$!; (cat <&3 >/dev/null; kill $pid 2>/dev/null) & wait $pid', bin, ...args],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const debug = process.env.X402_STACK_DEBUG === "1";
  const ready = new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`anvil did not start within 15 s: ${seen.slice(-400)}`)), 15000);
    child.stdout.on("data", (chunk) => {
      if (debug) process.stderr.write(chunk);
      if (seen === null) return;
      seen += chunk.toString();
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        seen = null;
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited early (code ${code}): ${String(seen ?? "").slice(-400)}`));
    });
  });
  return {
    ready,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 3000))]);
      if (!done) child.kill("SIGKILL");
    },
  };
}

// ---------------------------------------------------------------- HTTP helpers

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendJson(res, status, value) {
  const body = jsonText(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

// ---------------------------------------------------------------- facilitator

function startFacilitator({ facilitator, journal }) {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    try {
      if (req.method === "GET" && url.pathname === "/supported") {
        return sendJson(res, 200, facilitator.getSupported());
      }
      if (req.method === "POST" && (url.pathname === "/verify" || url.pathname === "/settle")) {
        const op = url.pathname.slice(1);
        let body;
        try {
          body = JSON.parse((await readBody(req)).toString("utf8"));
        } catch {
          return sendJson(res, 400, { error: "body is not JSON" });
        }
        // Both HTTPFacilitatorClient (@x402/core, v2 sellers) and x402/verify's
        // useFacilitator (x402-express, v1 sellers) send
        // {x402Version, paymentPayload, paymentRequirements}.
        const { paymentPayload, paymentRequirements } = body ?? {};
        if (!paymentPayload || !paymentRequirements) {
          return sendJson(res, 400, { error: "Missing paymentPayload or paymentRequirements" });
        }
        let result;
        try {
          result =
            op === "verify"
              ? await facilitator.verify(paymentPayload, paymentRequirements)
              : await facilitator.settle(paymentPayload, paymentRequirements);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (op === "settle" && message.includes("Settlement aborted:")) {
            result = {
              success: false,
              errorReason: message.replace("Settlement aborted: ", ""),
              network: paymentPayload?.accepted?.network ?? paymentPayload?.network ?? "unknown",
              transaction: "",
            };
          } else {
            log(`facilitator ${op} error:`, message);
            journal.push({ op, x402Version: paymentPayload.x402Version, error: message });
            return sendJson(res, 500, { error: message });
          }
        }
        journal.push({
          op,
          x402Version: paymentPayload.x402Version,
          network: paymentRequirements.network,
          payTo: paymentRequirements.payTo,
          result,
        });
        log(
          `facilitator ${op} v${paymentPayload.x402Version} ${paymentRequirements.network}:`,
          op === "verify" ? (result.isValid ? "valid" : `invalid ${result.invalidReason}`) : result.success ? `settled ${result.transaction}` : `failed ${result.errorReason}`,
        );
        return sendJson(res, 200, result);
      }
      sendJson(res, 404, { error: "not found" });
    } catch (error) {
      log("facilitator error:", error);
      sendJson(res, 500, { error: String(error?.message ?? error) });
    }
  });
  return server;
}

// ---------------------------------------------------------------- sellers

function addField(target, key, value) {
  if (!Object.prototype.hasOwnProperty.call(target, key)) target[key] = value;
  else if (Array.isArray(target[key])) target[key].push(value);
  else target[key] = [target[key], value];
}

/** Text fields and file summaries of a multipart/form-data body. */
function parseMultipart(buf, contentType) {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) throw new Error("multipart body without boundary");
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const delimiter = Buffer.concat([Buffer.from("\r\n"), boundary]);
  const fields = {};
  const files = {};
  let pos = buf.indexOf(boundary);
  if (pos === -1) throw new Error("multipart boundary not found in body");
  pos += boundary.length;
  while (pos < buf.length) {
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) break; // closing "--"
    if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) pos += 2;
    const headerEnd = buf.indexOf("\r\n\r\n", pos);
    if (headerEnd === -1) throw new Error("multipart part without header end");
    const headers = {};
    for (const line of buf.subarray(pos, headerEnd).toString("utf8").split("\r\n")) {
      const i = line.indexOf(":");
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const end = buf.indexOf(delimiter, headerEnd + 4);
    if (end === -1) throw new Error("multipart part without closing boundary");
    const content = buf.subarray(headerEnd + 4, end);
    const disposition = headers["content-disposition"] ?? "";
    const name = /(?:^|;)\s*name="([^"]*)"/i.exec(disposition)?.[1] ?? /(?:^|;)\s*name=([^;]+)/i.exec(disposition)?.[1] ?? "";
    const filename = /(?:^|;)\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename !== undefined) {
      addField(files, name, {
        filename,
        contentType: headers["content-type"] ?? null,
        size: content.length,
        text: content.toString("utf8"),
      });
    } else {
      addField(fields, name, content.toString("utf8"));
    }
    pos = end + delimiter.length;
  }
  return { fields, files };
}

/** Parses the raw body by its content type, keeping JSON types. */
function parseBody(raw, contentType) {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (raw.length === 0) return { kind: "none", body: null };
  if (/^application\/(.+\+)?json$/.test(type) || type === "text/json") {
    try {
      return { kind: "json", body: JSON.parse(raw.toString("utf8")) };
    } catch (error) {
      return { kind: "json", body: null, bodyError: `invalid JSON: ${error.message}` };
    }
  }
  if (type === "application/x-www-form-urlencoded") {
    return { kind: "form", body: { ...querystring.parse(raw.toString("utf8")) } };
  }
  if (type === "multipart/form-data") {
    try {
      const { fields, files } = parseMultipart(raw, contentType);
      return { kind: "multipart", body: fields, files };
    } catch (error) {
      return { kind: "multipart", body: null, bodyError: error.message };
    }
  }
  if (type.startsWith("text/") || type === "application/xml") {
    return { kind: "text", body: raw.toString("utf8") };
  }
  return { kind: "binary", body: raw.toString("base64") };
}

function decodeSettlementHeader(value) {
  if (!value) return null;
  try {
    return JSON.parse(Buffer.from(String(value), "base64").toString("utf8"));
  } catch {
    return { undecodable: String(value) };
  }
}

function startSeller(seller, facilitatorUrl, store) {
  const app = express();
  app.disable("x-powered-by");
  // Query values as received: strings (arrays for repeated keys), no qs nesting.
  app.set("query parser", "simple");
  app.use(express.raw({ type: () => true, limit: "10mb" }));
  app.use((req, _res, next) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    req.rawBody = raw;
    req.parsed = parseBody(raw, req.headers["content-type"]);
    req.body = req.parsed.body;
    next();
  });

  const terms = seller.accepts;
  if (seller.x402Version === 2) {
    const facilitatorClient = new HTTPFacilitatorClient({ url: facilitatorUrl });
    const resourceServer = new x402ResourceServer(facilitatorClient);
    for (const network of new Set(terms.map((a) => a.network))) {
      resourceServer.register(network, new ExactEvmServerScheme());
    }
    const routes = {
      [`${seller.method} ${seller.path}`]: {
        accepts: terms.map((a) => ({
          scheme: a.scheme,
          network: a.network,
          payTo: a.payTo,
          price: { amount: a.amount, asset: a.asset, extra: a.extra },
          maxTimeoutSeconds: a.maxTimeoutSeconds,
        })),
        description: seller.description,
        mimeType: seller.mimeType,
      },
    };
    app.use(paymentMiddlewareV2(routes, resourceServer));
  } else {
    const [a] = terms;
    // x402-express 1.2.0 route patterns know "[param]" and "*", not express's ":param".
    const v1Path = seller.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)\??/g, "[$1]");
    const routes = {
      [`${seller.method} ${v1Path}`]: {
        price: {
          amount: a.amount,
          asset: { address: a.asset, decimals: 6, eip712: a.extra },
        },
        network: a.network,
        config: {
          description: seller.description,
          mimeType: seller.mimeType,
          maxTimeoutSeconds: a.maxTimeoutSeconds,
        },
      },
    };
    app.use(paymentMiddlewareV1(a.payTo, routes, { url: facilitatorUrl }));
  }

  let counter = 0;
  app[seller.method.toLowerCase()](seller.path, (req, res) => {
    counter += 1;
    const id = `${seller.id}-${counter}`;
    const questionMark = req.originalUrl.indexOf("?");
    const record = {
      id,
      seller: seller.id,
      method: req.method,
      path: questionMark === -1 ? req.originalUrl : req.originalUrl.slice(0, questionMark),
      params: { ...req.params },
      query: { ...req.query },
      queryString: questionMark === -1 ? "" : req.originalUrl.slice(questionMark + 1),
      headers: { ...req.headers },
      contentType: req.headers["content-type"] ?? null,
      bodyKind: req.parsed.kind,
      body: req.parsed.body,
      ...(req.parsed.files ? { files: req.parsed.files } : {}),
      ...(req.parsed.bodyError ? { bodyError: req.parsed.bodyError } : {}),
      bodyRaw: req.rawBody.length <= 1 << 20 ? req.rawBody.toString("utf8") : null,
      at: new Date().toISOString(),
    };
    // The official middlewares run the handler after verify and settle after it
    // answers; only a response that went out with a settlement header was paid.
    res.on("finish", () => {
      const settlement = decodeSettlementHeader(res.getHeader("payment-response") ?? res.getHeader("x-payment-response"));
      record.status = res.statusCode;
      record.settlement = settlement;
      record.paid = res.statusCode < 400 && settlement?.success === true;
      store.push(record);
      log(`seller ${seller.id}: ${req.method} ${record.path} -> ${res.statusCode}${record.paid ? ` paid ${settlement.transaction}` : " NOT PAID"}`);
    });
    res.status(200).json({ ok: true, id });
  });
  app.use((err, _req, res, _next) => {
    log(`seller ${seller.id} error:`, err);
    res.status(500).json({ error: String(err?.message ?? err) });
  });
  return http.createServer(app);
}

// ---------------------------------------------------------------- control

function startControl({ config, seen, journal, publicClient }) {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    try {
      const seenMatch = /^\/seen\/([^/]+)$/.exec(url.pathname);
      if (seenMatch) {
        const id = decodeURIComponent(seenMatch[1]);
        const list = seen.get(id);
        if (!list) return sendJson(res, 404, { error: `no seller ${id}` });
        if (req.method === "DELETE") {
          list.length = 0;
          return sendJson(res, 200, { ok: true });
        }
        const all = url.searchParams.get("all") === "1";
        return sendJson(res, 200, all ? list : list.filter((r) => r.paid));
      }
      if (req.method === "GET" && url.pathname === "/balance") {
        const asset = url.searchParams.get("asset") ?? "";
        const owner = url.searchParams.get("owner") ?? "";
        if (!isAddress(asset, { strict: false }) || !isAddress(owner, { strict: false })) {
          return sendJson(res, 400, { error: "asset and owner must be addresses" });
        }
        const balance = await publicClient.readContract({
          address: getAddress(asset),
          abi: TOKEN_ABI,
          functionName: "balanceOf",
          args: [getAddress(owner)],
        });
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end(balance.toString());
      }
      if (req.method === "GET" && url.pathname === "/config") return sendJson(res, 200, config);
      if (req.method === "GET" && url.pathname === "/facilitator") return sendJson(res, 200, journal);
      sendJson(res, 404, { error: "not found" });
    } catch (error) {
      sendJson(res, 500, { error: String(error?.message ?? error) });
    }
  });
}

// ---------------------------------------------------------------- main

async function main() {
  const argv = process.argv.slice(2);
  const ignoreStdin = argv.includes("--ignore-stdin");
  const configPath = argv.find((a) => !a.startsWith("--"));
  if (!configPath) throw new Error("usage: node tests/x402/stack.mjs CONFIG.json [--ignore-stdin]");
  const config = resolveConfig(JSON.parse(fs.readFileSync(configPath, "utf8")));

  const cleanups = [];
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (error) {
        log("cleanup:", error?.message ?? error);
      }
    }
    process.exit(code);
  };
  process.on("SIGTERM", () => stop(0));
  process.on("SIGINT", () => stop(0));

  try {
    const anvil = startAnvil(config.chainId);
    cleanups.push(() => anvil.stop());
    const compiled = compileContracts(Object.values(config.assets));
    const rpc = await anvil.ready;
    log(`anvil ready at ${rpc} (chain ${config.chainId}) after ${Date.now() - t0} ms`);

    const chain = defineChain({
      id: config.chainId,
      name: `x402-local-${config.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpc] } },
    });
    const transport = viemHttp(rpc);
    const pollingInterval = 50;
    const publicClient = createPublicClient({ chain, transport, pollingInterval });
    const testClient = createTestClient({ chain, transport, mode: "anvil", pollingInterval });
    const minter = createWalletClient({ chain, transport, account: privateKeyToAccount(ANVIL_KEYS[1]), pollingInterval });
    const facilitatorAccount = privateKeyToAccount(ANVIL_KEYS[0]);
    const payerKey = config.payerPrivateKey ?? generatePrivateKey();
    const payer = privateKeyToAccount(payerKey);

    await testClient.setCode({ address: MULTICALL3, bytecode: compiled.multicall3 });
    for (const [asset, domain] of Object.entries(config.assets)) {
      await testClient.setCode({ address: asset, bytecode: compiled.token(domain) });
    }
    await testClient.setBalance({ address: payer.address, value: 10n ** 19n });
    for (const asset of Object.keys(config.assets)) {
      const hash = await minter.writeContract({
        address: asset,
        abi: TOKEN_ABI,
        functionName: "mint",
        args: [payer.address, BigInt(config.fund)],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`mint at ${asset} failed`);
    }

    // The official facilitator, signing with a viem wallet client on anvil.
    const viemClient = createWalletClient({ chain, transport, account: facilitatorAccount, pollingInterval }).extend(
      publicActions,
    );
    const evmSigner = toFacilitatorEvmSigner(
      {
        address: facilitatorAccount.address,
        getCode: (args) => viemClient.getCode(args),
        readContract: (args) => viemClient.readContract({ ...args, args: args.args || [] }),
        verifyTypedData: (args) => viemClient.verifyTypedData(args),
        writeContract: (args) => viemClient.writeContract({ ...args, args: args.args || [] }),
        sendTransaction: (args) => viemClient.sendTransaction(args),
        waitForTransactionReceipt: (args) => viemClient.waitForTransactionReceipt(args),
      },
      { confirmationTimeoutMs: 30000 },
    );
    const facilitator = new x402Facilitator();
    // v2 on this chain's CAIP-2 id, and (inside the helper) v1 on every v1 EVM network name.
    registerFacilitatorEvm(facilitator, { signer: evmSigner, networks: [`eip155:${config.chainId}`] });
    const journal = [];
    const facilitatorServer = startFacilitator({ facilitator, journal });
    const facilitatorUrl = await listen(facilitatorServer);
    cleanups.push(() => closeServer(facilitatorServer));

    const seen = new Map();
    const sellers = {};
    for (const seller of config.sellers) {
      const store = [];
      seen.set(seller.id, store);
      const server = startSeller(seller, facilitatorUrl, store);
      sellers[seller.id] = await listen(server);
      cleanups.push(() => closeServer(server));
    }
    const publicConfig = { ...config, payerPrivateKey: undefined, payer: payer.address };
    const control = startControl({ config: publicConfig, seen, journal, publicClient });
    const controlUrl = await listen(control);
    cleanups.push(() => closeServer(control));

    const ready = {
      rpc,
      facilitator: facilitatorUrl,
      control: controlUrl,
      payer: { address: payer.address, privateKey: payerKey },
      sellers,
      chainId: config.chainId,
      facilitatorAddress: facilitatorAccount.address,
      startupMs: Date.now() - t0,
    };
    process.stdout.write(`${JSON.stringify(ready)}\n`);
    log(`ready in ${ready.startupMs} ms`);

    if (!ignoreStdin) {
      process.stdin.on("data", () => {});
      process.stdin.on("end", () => stop(0));
      process.stdin.on("error", () => stop(0));
    }
  } catch (error) {
    log("failed to start:", error?.stack ?? error);
    await stop(1);
  }
}

function closeServer(server) {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    log(String(error?.message).startsWith("config:") ? error.message : (error?.stack ?? error));
    process.exit(1);
  });
}
