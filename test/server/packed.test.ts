/**
 * What a user gets from npm: the package packed (`npm pack`, which builds it), installed into an
 * empty directory, and `npx zoneward serve` run from there. The `openstack` CLI logs in with a
 * password through the identity endpoint (no token tricks), creates and lists zones and
 * recordsets; SIGTERM saves the snapshot, and a restart serves the same zones.
 *
 * Needs the `openstack` CLI (Debian's python3-openstackclient and python3-designateclient): skipped
 * with the reason where it is missing, a failure under CI=true.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWith, requirement } from '../support/requires.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const openstackCli = requirement(
  'the openstack CLI with its DNS plugin',
  spawnSync('openstack', ['zone', 'list', '--help'], { stdio: 'ignore' }).status === 0,
  'apt-get install python3-openstackclient python3-designateclient',
);

const freePort = (): Promise<number> =>
  new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => ok(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });

describeWith(openstackCli, 'the packed package served by npx zoneward serve', () => {
  let dir: string;
  let port: number;
  let server: ChildProcess | undefined;
  let output = '';

  const serve = async (): Promise<ChildProcess> => {
    const child = spawn('npx', ['--no-install', 'zoneward', 'serve', '--port', String(port), '--snapshot', join(dir, 'state.json')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npx does not pass a signal on, a terminal sends it to the group.
      detached: true,
    });
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`zoneward serve did not start:\n${output}`)), 60_000);
      const check = (): void => {
        if (/zoneward serving/.test(output)) {
          clearTimeout(timer);
          ok();
        }
      };
      child.stdout.on('data', check);
      child.once('exit', (code) => fail(new Error(`zoneward serve exited with ${code}:\n${output}`)));
    });
    return child;
  };
  /** SIGTERM to the group, as a terminal or a process manager sends it; resolves when zoneward said it closed. */
  const terminate = async (child: ChildProcess): Promise<void> => {
    const exited = new Promise((ok) => child.once('exit', ok));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    for (let i = 0; i < 200 && !/zoneward: SIGTERM, closing[\s\S]*closed/.test(output); i++) await new Promise((ok) => setTimeout(ok, 50));
  };

  const openstack = (...args: string[]): string => {
    const r = spawnSync('openstack', [...args, '-f', 'json'], {
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'],
        HOME: dir,
        OS_AUTH_URL: `http://127.0.0.1:${port}/identity/v3`,
        OS_IDENTITY_API_VERSION: '3',
        OS_USERNAME: 'alice',
        OS_PASSWORD: 'a password',
        OS_PROJECT_NAME: 'alice-project',
        OS_USER_DOMAIN_NAME: 'Default',
        OS_PROJECT_DOMAIN_NAME: 'Default',
        OS_REGION_NAME: 'RegionOne',
      },
    });
    if (r.status !== 0) throw new Error(`openstack ${args.join(' ')} failed:\n${r.stderr}\nserver:\n${output.slice(-3000)}`);
    return r.stdout;
  };
  const zoneNames = (): string[] => (JSON.parse(openstack('zone', 'list')) as { name: string }[]).map((z) => z.name).sort();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zoneward-packed-'));
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'packed-server-test', private: true }));
    execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed)], { cwd: dir, stdio: 'ignore' });
    port = await freePort();
    server = await serve();
  }, 300_000);

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null) await terminate(server);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('answers the openstack CLI after a password login: zones and recordsets', async () => {
    const zone = JSON.parse(openstack('zone', 'create', '--email', 'admin@packed.example', 'packed.example.')) as { name: string; status: string };
    expect(zone.name).toBe('packed.example.');
    expect(['PENDING', 'ACTIVE']).toContain(zone.status);
    openstack('zone', 'create', '--email', 'admin@second.example', 'second.example.');
    expect(zoneNames()).toEqual(['packed.example.', 'second.example.']);

    const rs = JSON.parse(openstack('recordset', 'create', 'packed.example.', 'www', '--type', 'A', '--record', '192.0.2.10')) as { name: string };
    expect(rs.name).toBe('www.packed.example.');
    const recordsets = JSON.parse(openstack('recordset', 'list', 'packed.example.')) as { name: string; type: string; records: string }[];
    expect(recordsets.find((r) => r.type === 'A')).toMatchObject({ name: 'www.packed.example.', records: '192.0.2.10' });
    // The request log is read once the synchronous CLI calls give the event loop back.
    await new Promise((ok) => setTimeout(ok, 200));
    expect(output).toMatch(/POST \/identity\/v3\/auth\/tokens 201/);
  }, 120_000);

  it('saves the snapshot on SIGTERM and serves the same zones after a restart', async () => {
    await terminate(server!);
    expect(output).toMatch(/zoneward: SIGTERM, closing[\s\S]*zoneward: closed/);
    expect(existsSync(join(dir, 'state.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).format).toBe(1);
    server = await serve();
    expect(zoneNames()).toEqual(['packed.example.', 'second.example.']);
    const recordsets = JSON.parse(openstack('recordset', 'list', 'packed.example.')) as { type: string; records: string }[];
    expect(recordsets.find((r) => r.type === 'A')?.records).toBe('192.0.2.10');
  }, 120_000);
});
