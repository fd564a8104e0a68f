#!/usr/bin/env node
// The dependency graph of src/ between folders (type-only imports included: a type is a
// dependency a reader has to follow too), checked against the declared layers below.
// `node scripts/layers.mjs` prints the graph; `--check` exits 1 on a cycle between folders or on
// any edge the declaration does not allow, so CI fails on a new loop or a new shortcut.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Every folder of src/ and the folders it may import, bottom layer first. The kernel (shared) and
// the ports are below every concept. A concept imports another only where the domain says the one
// acts on the other: every DNS concept hangs off a zone (zones is the aggregate root: visibility,
// the lifecycle, the push), recordsets are a zone's content, imports and exports are zone files in
// and out of recordsets, SECONDARY transfers go through the import's reader. Anything else is a
// shortcut and fails the check; README "Design" explains the order.
const LAYERS = {
  ports: [],
  shared: ['ports'],
  'adapters/memory': ['ports'],
  postgres: ['ports'],
  zonefile: [],
  quotas: ['adapters/memory', 'ports', 'shared'],
  'dns-quotas': ['ports', 'quotas', 'shared'],
  zones: ['dns-quotas', 'ports', 'shared'],
  recordsets: ['dns-quotas', 'ports', 'shared', 'zonefile', 'zones'],
  transfers: ['dns-quotas', 'ports', 'shared', 'zones'],
  imports: ['dns-quotas', 'recordsets', 'shared', 'zonefile', 'zones'],
  exports: ['dns-quotas', 'ports', 'recordsets', 'shared', 'zones'],
  secondary: ['dns-quotas', 'imports', 'ports', 'recordsets', 'shared', 'zonefile', 'zones'],
  dns: ['adapters/memory', 'dns-quotas', 'exports', 'imports', 'ports', 'recordsets', 'secondary', 'shared', 'transfers', 'zones'],
  http: ['dns', 'quotas', 'shared'],
  axfr: ['secondary', 'zonefile'],
  testing: ['dns-quotas', 'exports', 'imports', 'ports', 'quotas', 'recordsets', 'secondary', 'shared', 'transfers', 'zonefile', 'zones'],
  '.': ['adapters/memory', 'dns', 'dns-quotas', 'exports', 'imports', 'ports', 'quotas', 'recordsets', 'shared', 'transfers', 'zones'],
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith('.ts')) files.push(path);
  }
};
walk(root);

/** The folder a file belongs to: its first directory under src/ (`index.ts` at the top is `.`). */
const folderOf = (file) => {
  const rel = relative(root, file).split('/');
  return rel.length === 1 ? '.' : rel.slice(0, rel[0] === 'adapters' ? 2 : 1).join('/');
};

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm;
const edges = new Map(); // folder -> Map(folder -> [file -> file])
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const target = resolve(dirname(file), m[1].replace(/\.js$/, '.ts'));
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const out = edges.get(from);
    if (!out.has(to)) out.set(to, []);
    out.get(to).push(`${relative(root, file)} -> ${relative(root, target)}`);
  }
}

const folders = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
const reaches = (a, b, seen = new Set()) => {
  if (a === b) return true;
  if (seen.has(a)) return false;
  seen.add(a);
  return [...(edges.get(a)?.keys() ?? [])].some((n) => reaches(n, b, seen));
};

const lines = [];
for (const f of folders) {
  const out = [...(edges.get(f)?.keys() ?? [])].sort();
  if (out.length > 0) lines.push(`${f} -> ${out.join(', ')}`);
}
// Folders that reach each other: a strongly connected pair, reported once with the imports of each direction.
const cycles = [];
for (const a of folders) {
  for (const b of folders) {
    if (a < b && reaches(a, b) && reaches(b, a)) cycles.push([a, b]);
  }
}
process.stdout.write(`Dependency graph of src/ (folder -> folders it imports):\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
if (cycles.length === 0) process.stdout.write('No cycles between folders.\n');
else {
  process.stdout.write(`Folders that reach each other (${cycles.length} pairs):\n`);
  for (const [a, b] of cycles) {
    const direct = [...(edges.get(a)?.get(b) ?? []), ...(edges.get(b)?.get(a) ?? [])];
    process.stdout.write(`  ${a} <-> ${b}${direct.length > 0 ? `\n${direct.map((d) => `      ${d}`).join('\n')}` : ' (through others)'}\n`);
  }
}
// Edges the declaration does not allow, and folders it does not know.
const undeclared = [];
for (const f of folders) {
  const allowed = LAYERS[f];
  for (const [to, imports] of edges.get(f) ?? []) {
    if (allowed === undefined || !allowed.includes(to)) undeclared.push([f, to, imports]);
  }
}
for (const f of folders) if (LAYERS[f] === undefined) undeclared.push([f, '(any)', ['the folder is not declared in scripts/layers.mjs']]);
if (undeclared.length === 0) process.stdout.write('Every edge is declared in scripts/layers.mjs.\n');
else {
  process.stdout.write(`Edges not declared in scripts/layers.mjs (${undeclared.length}):\n`);
  for (const [from, to, imports] of undeclared) process.stdout.write(`  ${from} -> ${to}\n${imports.map((i) => `      ${i}`).join('\n')}\n`);
}
if (process.argv.includes('--check') && (cycles.length > 0 || undeclared.length > 0)) process.exit(1);
