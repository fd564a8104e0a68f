// One measurement in this (fresh) process, for zonefile-ab.ts and imports-vs.ts: <root> <parse|import|import-warm> <file>.
// import-warm: the file imported three times first (a service that has been running), then timed.
import { existsSync, readFileSync } from 'node:fs';
const [root, kind, file] = process.argv.slice(2) as [string, string, string];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const cpu = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1e6;
if (kind === 'parse') {
  const { parseZoneFile, writeZoneFile } = await import(`${root}/src/zonefile/index.ts`);
  // warm-up on a small slice (code, not data)
  parseZoneFile(readFileSync(file, 'utf8').slice(0, 200_000).replace(/\n[^\n]*$/, '\n'));
  const text = readFileSync(file, 'utf8');
  gc();
  const t0 = performance.now(); const c0 = process.cpuUsage();
  const r = parseZoneFile(text, { maxBytes: 1 << 30 });
  const parseWall = (performance.now() - t0) / 1000; const parseCpu = cpu(process.cpuUsage(c0));
  const rss = process.resourceUsage().maxRSS / 1024;
  if (r.isErr()) throw new Error(JSON.stringify(r.error));
  const zone = r.value;
  const t1 = performance.now(); const c1 = process.cpuUsage();
  const out = writeZoneFile(zone);
  const writeWall = (performance.now() - t1) / 1000; const writeCpu = cpu(process.cpuUsage(c1));
  process.stdout.write(JSON.stringify({ records: zone.records.length, parseWall, parseCpu, rss, writeWall, writeCpu, bytes: out.length }));
} else {
  // Either side of the layout move: the trees name the memory storage and the DNS wiring differently.
  const at = (...paths: string[]): string => `${root}/${paths.find((p) => existsSync(`${root}/${p}`)) ?? paths[0]!}`;
  const { memoryStorage } = await import(at('src/adapters/memory/memory-storage.ts', 'src/adapters/memory-storage.ts'));
  const { createDnsService } = await import(at('src/dns/service.ts', 'src/dns/dns-service.ts'));
  const ctx = { projectId: 'bench', roles: ['member'] };
  const service = () => createDnsService({ storage: memoryStorage(), limits: { maxZoneFileBytes: 1 << 30 }, quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 } });
  // The file is read once, inside this function, so that nothing here keeps it once the import is
  // done: `held` is the heap the imported zone keeps (after two full collections), text gone.
  const warmAndTime = async (dns: ReturnType<typeof service>): Promise<{ wall: number; c: number; id: string }> => {
    const full = readFileSync(file, 'utf8');
    for (let i = 0; i < (kind === 'import-warm' ? 3 : 1); i++) {
      const warm = service();
      // The whole lines of the first 120,000 characters, cut without a regular expression: V8 keeps
      // the last one's subject (`RegExp.input`), which here would keep the file alive.
      await warm.imports.create(ctx, kind === 'import-warm' ? full : full.slice(0, full.lastIndexOf('\n', 119_999) + 1), 'text/dns');
      await warm.tasks.settle();
    }
    gc(); gc();
    const t0 = performance.now(); const c0 = process.cpuUsage();
    const created = await dns.imports.create(ctx, full, 'text/dns');
    if (created.isErr()) throw created.error;
    await dns.tasks.settle();
    return { wall: (performance.now() - t0) / 1000, c: cpu(process.cpuUsage(c0)), id: created.value.id };
  };
  const dns = service();
  gc(); gc();
  const h0 = process.memoryUsage().heapUsed;
  const { wall, c, id } = await warmAndTime(dns);
  const rss = process.resourceUsage().maxRSS / 1024;
  const done = (await dns.imports.get(ctx, id))._unsafeUnwrap();
  if (done.status !== 'COMPLETE') throw new Error(`${done.status} ${String(done.message)}`);
  // Something lets go of the text only some turns of the event loop after `settle()` (measured:
  // after a 10 ms timer and a collection, not yet; after one more timer, gone): wait, collect, twice.
  for (let i = 0; i < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc(); gc();
  }
  const held = (process.memoryUsage().heapUsed - h0) / 2 ** 20;
  process.stdout.write(JSON.stringify({ importWall: wall, importCpu: c, rss, held }));
}
