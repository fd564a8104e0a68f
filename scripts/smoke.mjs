// Imports the built package by its name (ESM) and requires it (CJS), every subpath, from a
// temporary project that installs the packed tarball: what a user gets from npm.
// It packs from a tree without dist/, as a fresh clone is: `npm pack` must build it (prepack).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'zoneward-smoke-'));
rmSync(join(root, 'dist'), { recursive: true, force: true });
try {
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed), 'pg'], { cwd: dir, stdio: 'inherit' });
  writeFileSync(
    join(dir, 'esm.mjs'),
    `import { createDnsService, createQuotaService, memoryStorage, ApiError } from 'zoneward';
import { parseZoneFile, writeZoneFile } from 'zoneward/zonefile';
import { manualClock, sequentialIds, seededRandom, faultyStorage } from 'zoneward/testing';
import { postgresStorage } from 'zoneward/postgres';
import { createHttpHandler, trustedHeaders } from 'zoneward/http';
import { axfrMasters } from 'zoneward/axfr';
import { serveDns, secondaryTargets } from 'zoneward/dns-server';
for (const f of [createDnsService, createQuotaService, memoryStorage, parseZoneFile, writeZoneFile, manualClock, sequentialIds, seededRandom, faultyStorage, postgresStorage, axfrMasters, serveDns, secondaryTargets]) if (typeof f !== 'function') throw new Error('missing export');
const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), tasks: 'inline' });
const r = await dns.zones.create({ projectId: 'p', roles: ['member'] }, { name: 'example.com.', email: 'a@example.com' });
if (!r.isOk() || r.value.status !== 'ACTIVE') throw new Error('ESM create failed');
if (!(new ApiError(400, 't', 'm') instanceof Error)) throw new Error('ApiError');
const handle = createHttpHandler({ dns, authenticate: trustedHeaders() });
const listed = await handle(new Request('http://127.0.0.1:1/v2/zones', { headers: { 'X-Auth-Project-ID': 'p', 'X-Roles': 'member' } }));
if (listed.status !== 200 || (await listed.json()).zones.length !== 1) throw new Error('ESM http failed');
const server = await serveDns({ dns });
if (typeof server.port !== 'number' || server.servedSerial('example.com.') !== r.value.serial) throw new Error('ESM dns-server failed');
await server.close();
console.log('ESM ok');
`,
  );
  writeFileSync(
    join(dir, 'cjs.cjs'),
    `const z = require('zoneward'); const zf = require('zoneward/zonefile'); const t = require('zoneward/testing'); const pg = require('zoneward/postgres'); const ax = require('zoneward/axfr'); const h = require('zoneward/http'); const ds = require('zoneward/dns-server');
for (const f of [ds.serveDns, ds.secondaryTargets, z.createDnsService, z.createQuotaService, z.memoryStorage, zf.parseZoneFile, zf.writeZoneFile, t.manualClock, t.sequentialIds, pg.postgresStorage, ax.axfrMasters, h.createHttpHandler, h.trustedHeaders]) if (typeof f !== 'function') throw new Error('missing export');
const parsed = zf.parseZoneFile('$ORIGIN example.com.\\n@ 300 IN A 192.0.2.1\\n');
if (!parsed.isOk()) throw new Error('CJS parse failed');
console.log('CJS ok');
`,
  );
  execFileSync(process.execPath, ['esm.mjs'], { cwd: dir, stdio: 'inherit' });
  execFileSync(process.execPath, ['cjs.cjs'], { cwd: dir, stdio: 'inherit' });
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('npm pack did not build dist/');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
