/**
 * The design map (docs/design.md) stays true: every path it names exists, and the folder graph of
 * src/ has no cycle, no concept importing another and only declared edges (the same check CI
 * runs); and that check does refuse such an edge, on small trees laid out like src/.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const design = readFileSync(join(root, 'docs', 'design.md'), 'utf8');

describe('docs/design.md map', () => {
  const paths = [...design.matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1]!);

  it('names paths', () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it.each(paths)('%s exists', (path) => {
    expect(existsSync(join(root, path)), `${path} is in docs/design.md but not in the tree`).toBe(true);
  });

  it('has no cycle between the folders of src/, and no edge scripts/layers.mjs does not declare', () => {
    expect(() => execFileSync(process.execPath, [join(root, 'scripts', 'layers.mjs'), '--check'], { encoding: 'utf8' })).not.toThrow();
  });
});

describe('scripts/layers.mjs --check', () => {
  /** Runs the check on a tree of the given files (path under the root -> text). */
  const check = (files: Record<string, string>): { status: number | null; out: string } => {
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const run = spawnSync(process.execPath, [join(root, 'scripts', 'layers.mjs'), '--check', '--root', dir], { encoding: 'utf8' });
      return { status: run.status, out: run.stdout };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const kernel = {
    'kernel/s.ts': "import type { P } from '../ports/p.js';\nexport const s = 1;\n",
    'ports/p.ts': 'export type P = number;\n',
    'dns/kernel/z.ts': "import { s } from '../../kernel/s.js';\nexport const z = s;\n",
    'dns/recordsets/r.ts': 'export const r = 1;\n',
  };

  it('passes concepts that import only kernels and ports', () => {
    const run = check({ ...kernel, 'dns/zones/a.ts': "import { z } from '../kernel/z.js';\nimport type { P } from '../../ports/p.js';\nexport const a: P = z;\n" });
    expect(run.out).toContain('no concept imports another');
    expect(run.status).toBe(0);
  });

  it.each([
    ['import … from', "import { r } from '../recordsets/r.js';\nexport const a = r;\n"],
    ['export … from', "export { r } from '../recordsets/r.js';\n"],
    ['a bare import', "import '../recordsets/r.js';\n"],
    ['a dynamic import', "export const a = () => import('../recordsets/r.js');\n"],
  ])('fails a concept that imports another concept (%s)', (_, text) => {
    const run = check({ ...kernel, 'dns/zones/a.ts': text });
    expect(run.out).toContain('dns/zones -> dns/recordsets: a concept imports no other concept');
    expect(run.status).toBe(1);
  });

  it('fails a concept that imports an adapter, and a kernel that imports a concept', () => {
    const run = check({
      ...kernel,
      'adapters/memory/m.ts': "import type { P } from '../../ports/p.js';\nexport const m: P = 1;\n",
      'dns/quotas/q.ts': "import { m } from '../../adapters/memory/m.js';\nexport const q = m;\n",
      'dns/kernel/y.ts': "import { r } from '../recordsets/r.js';\nexport const y = r;\n",
    });
    expect(run.out).toContain('dns/quotas -> adapters/memory: a concept imports only kernel, dns/kernel, ports, zonefile');
    expect(run.out).toContain('dns/kernel -> dns/recordsets: not declared');
    expect(run.status).toBe(1);
  });
});
