/**
 * The README's "Design" map stays true: every path it names exists, and the folder graph of
 * src/ has no cycle and only declared edges (the same check CI runs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const design = readme.slice(readme.indexOf('## Design'), readme.indexOf('\n## ', readme.indexOf('## Design') + 1));

describe('README "Design" map', () => {
  const paths = [...design.matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1]!);

  it('names paths', () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it.each(paths)('%s exists', (path) => {
    expect(existsSync(join(root, path)), `${path} is in the README's Design map but not in the tree`).toBe(true);
  });

  it('has no cycle between the folders of src/, and no edge scripts/layers.mjs does not declare', () => {
    expect(() => execFileSync(process.execPath, [join(root, 'scripts', 'layers.mjs'), '--check'], { encoding: 'utf8' })).not.toThrow();
  });
});
