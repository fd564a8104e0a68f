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

/** NSD serving several zones (see {@link startNsdZones}). */
export interface RunningServer {
  readonly port: number;
  /** What the server logged (why a zone did not load). */
  log(): string;
  /** Stops NSD and, once it has exited, removes its directory. */
  stop(): Promise<void>;
  /** The directory its zone files are in, `z0.db` and on in the order given. */
  readonly dir: string;
  /** Has NSD read its zone files again. */
  reread(): void;
}

/**
 * Starts NSD with `zones` (name → zone file text), transfers allowed to 127.0.0.1; resolves once
 * every zone is loaded or failed.
 */
export async function startNsdZones(zones: ReadonlyMap<string, string>): Promise<RunningServer> {
  if (NSD === undefined) throw new Error('nsd is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'zoneward-nsd-'));
  const port = await freePort();
  const conf = [
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
    '  verbosity: 2',
    // Response rate limiting (on in Debian's build) would drop a load test's answers.
    '  rrl-ratelimit: 0',
    'remote-control:',
    '  control-enable: no',
  ];
  let i = 0;
  for (const [name, text] of zones) {
    const file = `z${i++}.db`;
    writeFileSync(join(dir, file), text);
    conf.push('zone:', `  name: "${name}"`, `  zonefile: "${file}"`, '  provide-xfr: 127.0.0.1 NOKEY');
  }
  writeFileSync(join(dir, 'nsd.conf'), conf.join('\n') + '\n');
  const child: ChildProcess = spawn(NSD, ['-d', '-c', join(dir, 'nsd.conf')], { stdio: 'ignore' });
  // NSD writes its transfer state and log while it shuts down: remove its directory only once it
  // has exited (SIGKILL after a deadline, so a stuck server cannot hang the suite).
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logFile = join(dir, 'nsd.log');
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const deadline = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(deadline);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once every zone is read (or failed): the log says so.
  for (let n = 0; n < 400; n++) {
    const text = log();
    const loaded = (text.match(/zone .* (read with success|read with \d+ errors)|error/g) ?? []).length;
    if (loaded >= zones.size || /nsd started/.test(text)) break;
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nsd exited with ${child.exitCode}: ${text}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { port, log, stop, dir, reread: () => child.kill('SIGHUP') };
}

/** Starts NSD serving `zone` from `text`; resolves once it answers on its port. */
export async function startNsd(zone: string, text: string): Promise<RunningNsd> {
  const server = await startNsdZones(new Map([[zone, text]]));
  return {
    port: server.port,
    reload(next) {
      writeFileSync(join(server.dir, 'z0.db'), next);
      server.reread();
    },
    stop: () => server.stop(),
  };
}

/** Whether nsd can run here (CI installs it). */
export const nsdAvailable = NSD !== undefined && spawnSync(NSD, ['-v'], { stdio: 'ignore' }).status !== null;

/** What the tests against a real master need. */
export const nsdRequirement: Requirement = requirement('nsd', nsdAvailable, 'apt-get install nsd');
