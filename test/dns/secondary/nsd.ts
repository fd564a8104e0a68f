/**
 * A real master for the tests: NSD (from Debian) serving one zone on 127.0.0.1, on a free port,
 * with its own temporary configuration and zone transfers allowed to 127.0.0.1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirement, type Requirement } from '../../support/requires.js';

export const NSD = ['/usr/sbin/nsd', '/usr/bin/nsd'].find((p) => existsSync(p));

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningNsd {
  readonly port: number;
  /** Replaces the zone file and has NSD read it again. */
  reload(text: string): void;
  /** Stops NSD and, once it has exited, removes its directory. */
  stop(): Promise<void>;
}

/** Starts NSD serving `zone` from `text`; resolves once it answers on its port. */
export async function startNsd(zone: string, text: string): Promise<RunningNsd> {
  if (NSD === undefined) throw new Error('nsd is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'zoneward-nsd-'));
  const port = await freePort();
  const zoneFile = join(dir, 'zone.db');
  writeFileSync(zoneFile, text);
  writeFileSync(
    join(dir, 'nsd.conf'),
    [
      'server:',
      `  ip-address: 127.0.0.1@${port}`,
      `  zonesdir: "${dir}"`,
      '  database: ""',
      `  pidfile: "${dir}/nsd.pid"`,
      `  xfrdfile: "${dir}/xfrd.state"`,
      `  zonelistfile: "${dir}/zone.list"`,
      '  username: ""',
      '  chroot: ""',
      `  logfile: "${dir}/nsd.log"`,
      '  server-count: 1',
      '  tcp-count: 16',
      'remote-control:',
      '  control-enable: no',
      'zone:',
      `  name: ${zone}`,
      '  zonefile: "zone.db"',
      '  provide-xfr: 127.0.0.1 NOKEY',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NSD, ['-d', '-c', join(dir, 'nsd.conf')], { stdio: 'ignore' });
  // NSD writes its transfer state and log while it shuts down: remove its directory only once it
  // has exited (SIGKILL after a deadline, so a stuck server cannot hang the suite).
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const deadline = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(deadline);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once the zone is loaded: the log says so.
  const log = join(dir, 'nsd.log');
  for (let i = 0; i < 200; i++) {
    if (existsSync(log) && /zone .* read with success|nsd started/.test(readFileSync(log, 'utf8'))) break;
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nsd exited with ${child.exitCode}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    port,
    reload(next) {
      writeFileSync(zoneFile, next);
      child.kill('SIGHUP');
    },
    stop,
  };
}

/** Whether nsd can run here (CI installs it). */
export const nsdAvailable = NSD !== undefined && spawnSync(NSD, ['-v'], { stdio: 'ignore' }).status !== null;

/** What the tests against a real master need. */
export const nsdRequirement: Requirement = requirement('nsd', nsdAvailable, 'apt-get install nsd');
