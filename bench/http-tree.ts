/**
 * The zoneward a HTTP bench measures: a tree's BUILT package (`dist/`, after `npx tsup`) when it
 * has one, bundled, tree-shaken and compiled as users run it; its sources (compiled by
 * bench/loader.mjs) only when it has none or `HTTP_BENCH_FROM=src` asks. A tree of an older
 * commit (bench/ab) is compared as it was shipped, whichever loader the bench runs under.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Root from '../src/index.js';
import type * as Http from '../src/adapters/http/index.js';
import type * as Testing from '../src/testing/index.js';

/** What the HTTP benches use of one tree. */
export interface Tree {
  readonly createDnsService: typeof Root.createDnsService;
  readonly createHttpHandler: typeof Http.createHttpHandler;
  readonly toNodeListener: typeof Http.toNodeListener;
  readonly trustedHeaders: typeof Http.trustedHeaders;
  readonly manualClock: typeof Testing.manualClock;
  readonly sequentialIds: typeof Testing.sequentialIds;
  /** Where it was loaded from, for the report: `dist` or `src`. */
  readonly from: string;
}

/** The newest modification time of a file under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

/** Loads the tree at `root` (this checkout by default). */
export async function loadTree(root = new URL('..', import.meta.url).pathname): Promise<Tree> {
  const dir = resolve(root);
  const dist = join(dir, 'dist');
  const useDist = process.env['HTTP_BENCH_FROM'] !== 'src' && existsSync(join(dist, 'http.js'));
  if (useDist && existsSync(join(dir, 'src')) && newest(join(dir, 'src')) > statSync(join(dist, 'http.js')).mtimeMs) {
    process.stderr.write(`warning: ${dir}/src is newer than its dist/: run \`npx tsup\` there first\n`);
  }
  const at = (file: string) => pathToFileURL(join(dir, file)).href;
  const [root_, http, testing] = useDist
    ? await Promise.all([import(at('dist/index.js')), import(at('dist/http.js')), import(at('dist/testing.js'))])
    : await Promise.all([import(at('src/index.ts')), import(at('src/adapters/http/index.ts')), import(at('src/testing/index.ts'))]);
  const { createDnsService } = root_ as typeof Root;
  const { createHttpHandler, toNodeListener, trustedHeaders } = http as typeof Http;
  const { manualClock, sequentialIds } = testing as typeof Testing;
  return { createDnsService, createHttpHandler, toNodeListener, trustedHeaders, manualClock, sequentialIds, from: useDist ? 'dist' : 'src' };
}
