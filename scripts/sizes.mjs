#!/usr/bin/env node
// The size rule of the source tree (docs/design.md, "Sizes"): no function over 120 lines and no
// file over 500 lines, measured with the TypeScript compiler's own parse (so a line count is of a
// function as the compiler sees it, comments and blank lines inside it included).
// `node scripts/sizes.mjs` lists what is over either limit; `--check` exits 1 when something is
// over that docs/design.md does not name as an exception, so a new long function fails CI.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const FUNCTION_LINES = 120;
const FILE_LINES = 500;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(repo, 'src');

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(path);
  }
};
walk(src);

/** A function's name as a reader looks it up: `Class.method`, `name` of `const name = () => …`. */
function nameOf(node) {
  const own = node.name !== undefined && ts.isIdentifier(node.name) ? node.name.text : undefined;
  let owner;
  for (let p = node.parent; p !== undefined; p = p.parent) {
    if ((ts.isClassDeclaration(p) || ts.isClassExpression(p)) && p.name !== undefined) {
      owner = p.name.text;
      break;
    }
  }
  if (own !== undefined) return owner !== undefined && !ts.isFunctionDeclaration(node) ? `${owner}.${own}` : own;
  const p = node.parent;
  if (p !== undefined && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isConstructorDeclaration(node)) return `${owner ?? '?'}.constructor`;
  return '(anonymous)';
}

const longFunctions = [];
const longFiles = [];
for (const path of files) {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const rel = relative(repo, path);
  const lines = file.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1);
  if (lines > FILE_LINES) longFiles.push({ path: rel, lines });
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body !== undefined) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const n = end - start + 1;
      if (n > FUNCTION_LINES) longFunctions.push({ path: rel, name: nameOf(node), line: start + 1, lines: n });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

// The exceptions docs/design.md names, each with why: a row `| `path` | `name` | … |` of its
// "Sizes" table (a file exception names the file alone, `—` as the function).
const design = readFileSync(join(repo, 'docs', 'design.md'), 'utf8');
const section = design.slice(design.indexOf('## Sizes'));
const excepted = new Set();
for (const m of section.matchAll(/^\| `([^`]+)` \| (?:`([^`]+)`|—) \|/gm)) excepted.add(m[2] === undefined ? m[1] : `${m[1]} ${m[2]}`);

const rows = [
  ...longFiles.map((f) => ({ key: f.path, text: `${f.path}: ${f.lines} lines` })),
  ...longFunctions.map((f) => ({ key: `${f.path} ${f.name}`, text: `${f.path}:${f.line} ${f.name}: ${f.lines} lines` })),
];
for (const r of rows) console.log(`${excepted.has(r.key) ? 'excepted ' : 'OVER     '} ${r.text}`);
const over = rows.filter((r) => !excepted.has(r.key));
const stale = [...excepted].filter((k) => !rows.some((r) => r.key === k));
for (const k of stale) console.log(`stale     ${k}: named in docs/design.md but within the limits`);
console.log(`${longFiles.length} files over ${FILE_LINES} lines, ${longFunctions.length} functions over ${FUNCTION_LINES} lines; ${over.length} not excepted, ${stale.length} stale exceptions.`);
if (process.argv.includes('--check') && (over.length > 0 || stale.length > 0)) process.exit(1);
