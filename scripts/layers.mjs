#!/usr/bin/env node
// The dependency graph of src/ between folders (type-only imports included: a type is a
// dependency a reader has to follow too), and its cycles. `node scripts/layers.mjs` prints the
// graph; `--check` exits 1 when two concept folders reach each other, so CI fails on a new loop.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
if (process.argv.includes('--check') && cycles.length > 0) process.exit(1);
