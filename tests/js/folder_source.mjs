// A { fetchJson(path) } source over a built API folder, for the Node runners that the
// Rust differential tests drive: parsed JSON, or null when the file does not exist.
// Each file is read and parsed once, however many queries ask for it.
import { readFile } from "node:fs/promises";
import path from "node:path";

export function folderSource(apiDir) {
  const cache = new Map();
  const load = async (rel) => {
    try {
      return JSON.parse(await readFile(path.join(apiDir, rel), "utf8"));
    } catch (e) {
      if (e.code === "ENOENT") return null;
      throw e;
    }
  };
  return {
    fetchJson(rel) {
      if (!cache.has(rel)) cache.set(rel, load(rel));
      return cache.get(rel);
    },
  };
}
