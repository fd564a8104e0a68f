#!/usr/bin/env node
// The dependency graph of src/ between folders (type-only imports included: a type is a
// dependency a reader has to follow too), checked against the declared layers below.
// `node scripts/layers.mjs` prints the graph; `--check` exits 1 on a cycle between folders or on
// any edge the declaration does not allow, so CI fails on a new loop or a new shortcut.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The layers of src/, bottom first. Each folder lists the folders it may import; a folder that is
// not declared, or an import that is not listed, fails the check.
//
// The rule that matters most is not a list but a check (`conceptRule` below): a concept folder
// (one business concept of a service: its commands, inputs, policies and errors) imports only
// the kernels of its service, the ports and zonefile, NEVER another concept. What two concepts
// both need (the zone aggregate, the recordset storage, quota arithmetic) belongs in a kernel, so
// a concept can be read, changed or removed without reading any other. README "Design" explains
// the order.
const FOUNDATION = {
  ports: [],
  zonefile: [],
  kernel: ['ports'],
  'adapters/memory': ['ports'],
  'adapters/postgres': ['ports'],
};
/** The DNS service's kernel: the aggregates, their repositories, lifecycle, tasks, visibility and quota limits. */
const KERNELS = {
  'dns/kernel': ['ports', 'kernel', 'zonefile'],
};
/** Each concept and the kernels of its service (`kernel` is the kernel of both services). */
const DNS = ['kernel', 'dns/kernel'];
const CONCEPTS = {
  'dns/zones': DNS,
  'dns/recordsets': DNS,
  'dns/transfers': DNS,
  'dns/imports': DNS,
  'dns/exports': DNS,
  'dns/secondary': DNS,
  'dns/quotas': DNS,
  'dns/tsigkeys': DNS,
  'dns/pools': DNS,
  'dns/service-statuses': DNS,
  'dns/limits': DNS,
  'dns/reverse': DNS,
  'dns/tlds': DNS,
  'dns/blacklists': DNS,
};
/** The DNS concepts, for the wiring that assembles them. */
const DNS_CONCEPTS = Object.keys(CONCEPTS).filter((c) => c.startsWith('dns/'));
/** Wiring: builds the services from the concepts (the services first, then what serves them). */
const WIRING = {
  // The secrets service's quota API is small enough to be one folder: its commands and its assembly.
  'project-quotas': ['adapters/memory', 'ports', 'kernel'],
  dns: ['adapters/memory', 'dns/kernel', ...DNS_CONCEPTS, 'ports', 'kernel'],
  'adapters/http': ['dns', 'dns/kernel', 'project-quotas', 'kernel'],
  'adapters/axfr': ['dns/secondary', 'zonefile'],
  'adapters/dns-server': ['dns', 'dns/kernel', 'zonefile'],
  testing: ['dns/kernel', ...DNS_CONCEPTS, 'ports', 'project-quotas', 'kernel', 'zonefile'],
  // `zoneward serve`: both services, an identity endpoint and the test endpoints on node:http.
  server: ['adapters/memory', 'adapters/postgres', 'adapters/http', 'adapters/dns-server', 'dns', 'project-quotas', 'kernel', 'ports', 'testing'],
  '.': ['adapters/memory', 'dns', 'dns/kernel', ...DNS_CONCEPTS, 'ports', 'project-quotas', 'kernel'],
};

/** Why `from` may not import `to`, or undefined when it may. */
const conceptRule = (from, to) => {
  if (CONCEPTS[to] !== undefined) return `a concept imports no other concept: move what ${from} needs of ${to} into a kernel`;
  const allowed = [...CONCEPTS[from], 'ports', 'zonefile'];
  return allowed.includes(to) ? undefined : `a concept imports only ${allowed.join(', ')}`;
};
const LAYERS = { ...FOUNDATION, ...KERNELS, ...WIRING };
const refusal = (from, to) => {
  if (CONCEPTS[from] !== undefined) return conceptRule(from, to);
  if (LAYERS[from] === undefined) return 'the folder is not declared in scripts/layers.mjs';
  return LAYERS[from].includes(to) ? undefined : 'not declared in scripts/layers.mjs';
};

// `--root <dir>` checks another tree laid out like src/ (the test of the rules uses it).
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? resolve(process.argv[rootArg + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
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
  return rel.length === 1 ? '.' : rel.slice(0, (rel[0] === 'adapters' || rel[0] === 'dns') && rel.length > 2 ? 2 : 1).join('/');
};

// `import … from`, `export … from`, a bare `import './x.js'` and a dynamic `import('./x.js')`.
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm;
const edges = new Map(); // folder -> Map(folder -> [file -> file])
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const target = resolve(dirname(file), (m[1] ?? m[2] ?? m[3]).replace(/\.js$/, '.ts'));
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
// Edges the rules do not allow, and folders they do not know.
const undeclared = [];
for (const f of folders) {
  for (const [to, imports] of edges.get(f) ?? []) {
    const why = refusal(f, to);
    if (why !== undefined) undeclared.push([f, to, why, imports]);
  }
}
if (undeclared.length === 0) process.stdout.write('Every edge is allowed by scripts/layers.mjs (no concept imports another).\n');
else {
  process.stdout.write(`Edges scripts/layers.mjs does not allow (${undeclared.length}):\n`);
  for (const [from, to, why, imports] of undeclared) process.stdout.write(`  ${from} -> ${to}: ${why}\n${imports.map((i) => `      ${i}`).join('\n')}\n`);
}
if (process.argv.includes('--check') && (cycles.length > 0 || undeclared.length > 0)) process.exit(1);
