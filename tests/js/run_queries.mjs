// Runs the JavaScript composer over a built API folder, for the Rust differential test.
//
//   node tests/js/run_queries.mjs <api_dir> <queries.json>
//
// queries.json: [{"text": str, "max_price": str|null, "network": str|null, "exclude_testnets": bool,
//                 "answered_402": bool, "limit": str|null, "offset": str|null}, …]
// Prints one JSON array: per query, the answer envelope, {"error": {"code": "INVALID_FILTER",
// "message": …}} (the message is Rust's FilterError text), or {"error": {"code": …}}.
// Exits non-zero on anything else (a bug, an unreadable file), so the test fails loudly.

import { readFile } from "node:fs/promises";
import { query } from "../../static/composer.js";
import { folderSource } from "./folder_source.mjs";

async function runOne(source, { text, max_price, network, exclude_testnets, answered_402, limit, offset }) {
  try {
    const answer = await query(source, text, { max_price, network, exclude_testnets, answered_402, limit, offset });
    return answer.error ? { error: { code: answer.error.code } } : answer;
  } catch (e) {
    if (e.code === "INVALID_FILTER") return { error: { code: e.code, message: e.message } };
    throw e;
  }
}

async function main([apiDir, queriesFile]) {
  if (!apiDir || !queriesFile) {
    process.stderr.write("usage: node tests/js/run_queries.mjs <api_dir> <queries.json>\n");
    return 2;
  }
  const queries = JSON.parse(await readFile(queriesFile, "utf8"));
  const source = folderSource(apiDir);
  const results = [];
  // Sequential, so output order is query order and memory stays flat.
  for (const q of queries) results.push(await runOne(source, q));
  process.stdout.write(JSON.stringify(results) + "\n");
  return 0;
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (e) => {
    process.stderr.write(`run_queries: ${e.stack ?? e}\n`);
    process.exitCode = 1;
  },
);
