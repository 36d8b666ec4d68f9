// Runs the explore composer (static/explore.js, under Node) over a built API folder,
// for the Rust differential test (tests/it/explore_differential.rs).
//
//   node tests/js/run_explore.mjs <api_dir> <queries.json>
//
// queries.json: [{"text": str, "limit": str|null}, …]. Prints one JSON array: per query
// the explore envelope, {"error": {"code": "INVALID_FILTER", "message": …}} (Rust's
// FilterError text), or {"error": {"code": …}}. Exits non-zero on anything else.

import { readFile } from "node:fs/promises";
import { explore } from "../../static/explore.js";
import { folderSource } from "./folder_source.mjs";

async function main([apiDir, queriesFile]) {
  if (!apiDir || !queriesFile) {
    process.stderr.write("usage: node tests/js/run_explore.mjs <api_dir> <queries.json>\n");
    return 2;
  }
  const queries = JSON.parse(await readFile(queriesFile, "utf8"));
  const source = folderSource(apiDir);
  const results = [];
  for (const { text, limit } of queries) {
    try {
      const answer = await explore(source, text, { limit });
      results.push(answer.error ? { error: { code: answer.error.code } } : answer);
    } catch (e) {
      if (e.code !== "INVALID_FILTER") throw e;
      results.push({ error: { code: e.code, message: e.message } });
    }
  }
  process.stdout.write(JSON.stringify(results) + "\n");
  return 0;
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (e) => {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exitCode = 1;
  },
);
