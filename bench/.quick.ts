import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const load = async (dir: string) => ({
  lib: await import(pathToFileURL(join(dir, 'src', 'index.ts')).href),
  testing: await import(pathToFileURL(join(dir, 'src', 'testing', 'index.ts')).href),
});
const CREATES = 20000, PAGES = 2000;
const member = (i: number) => ({ projectId: `project-${i}`, roles: ['member'] });
const gc = (globalThis as any).gc ?? (() => {});
async function createsAndPages(v: any): Promise<{ create: number; page: number }> {
  const clock = v.testing.manualClock('2026-01-01T00:00:00Z');
  const dns = v.lib.createDnsService({ clock, ids: v.testing.sequentialIds(), random: v.testing.seededRandom(1), quotas: { zones: -1 } });
  const ctxs = Array.from({ length: 100 }, (_, i) => member(i));
  gc();
  let t = performance.now();
  for (let n = 0; n < CREATES; n++) {
    if (n % 16 === 0) clock.advance(1);
    const r = await dns.zones.create(ctxs[n % 100]!, { name: `zone-${n}.example.com.`, email: 'hostmaster@example.com' });
    if (r.isErr()) throw new Error('create failed');
  }
  const create = ((performance.now() - t) / CREATES) * 1000;
  const probe = member(7); // holds 200 zones: every page is a full page of 20
  t = performance.now();
  for (let i = 0; i < PAGES; i++) (await dns.zones.list(probe, { limit: '20' }))._unsafeUnwrap();
  const page = ((performance.now() - t) / PAGES) * 1000;
  return { create, page };
}
const oldV = await load(process.env.BASE!);
const newV = await load('/work/wt-layering');
for (const v of [oldV, newV]) await createsAndPages(v);
for (let r = 0; r < 3; r++) for (const [n, v] of [['old', oldV], ['new', newV], ['new', newV], ['old', oldV]] as const) { const x = await createsAndPages(v); console.log(n, x.create.toFixed(1), x.page.toFixed(1)); }
