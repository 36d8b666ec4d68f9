// A registry of one machine's installed packages, for installing the packed x402dir-mcp
// without the public registry (tests/it/mcp_npm.rs):
//
//     node local_registry.mjs NODE_MODULES
//
// serves, on a free loopback port (printed as the first line, `http://127.0.0.1:PORT/`),
// a packument for every package name installed under NODE_MODULES (every version found,
// nested copies included) and each version's tarball, packed from its installed folder.
// npm installs from it with --registry and keeps what it fetched in its --cache, from which
// a second install runs with --offline.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const root = process.argv[2];
const installed = new Map(); // name -> Map(version -> { dir, manifest })

function scan(modules) {
  if (!existsSync(modules)) return;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((e) => join(modules, entry, e)) : [join(modules, entry)];
    for (const dir of dirs) {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (!manifest.name || !manifest.version) continue;
      if (!installed.has(manifest.name)) installed.set(manifest.name, new Map());
      if (!installed.get(manifest.name).has(manifest.version)) installed.get(manifest.name).set(manifest.version, { dir, manifest });
      scan(join(dir, 'node_modules'));
    }
  }
}
scan(root);

const KEEP = ['name', 'version', 'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu', 'license'];
let base;
const server = createServer((request, response) => {
  const path = decodeURIComponent(new URL(request.url, 'http://x').pathname).slice(1);
  const tarball = path.match(/^-\/(.+)\/(.+)\.tgz$/);
  if (tarball) {
    const found = installed.get(tarball[1])?.get(tarball[2]);
    if (!found) return response.writeHead(404).end();
    const body = execFileSync('tar', ['czf', '-', '--transform', 's,^\\.,package,', '--exclude', './node_modules', '-C', found.dir, '.'], {
      maxBuffer: 1 << 30,
    });
    return response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  }
  const versions = installed.get(path);
  if (!versions) return response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  const packument = { name: path, 'dist-tags': {}, versions: {} };
  for (const [version, { manifest }] of versions) {
    const kept = Object.fromEntries(KEEP.filter((k) => manifest[k] !== undefined).map((k) => [k, manifest[k]]));
    packument.versions[version] = { ...kept, dist: { tarball: `${base}-/${path}/${version}.tgz` } };
    packument['dist-tags'].latest = version;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
});
server.listen(0, '127.0.0.1', () => {
  base = `http://127.0.0.1:${server.address().port}/`;
  process.stdout.write(`${base}\n`);
});
