/**
 * Real secondaries for the tests: BIND 9.18 and Knot 3.2 (from Debian), each on 127.0.0.1 and a
 * free port, in a temporary directory, configured once as consumers of zoneward's catalog zone
 * (RFC 9432): every zone they serve, they learn from the catalog and transfer from zoneward.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NAMED = ['/usr/sbin/named', '/usr/bin/named'].find((p) => existsSync(p));
export const KNOTD = ['/usr/sbin/knotd', '/usr/bin/knotd'].find((p) => existsSync(p));
export const bindAvailable = NAMED !== undefined && spawnSync(NAMED, ['-v'], { stdio: 'ignore' }).status === 0;
export const knotAvailable = KNOTD !== undefined && spawnSync(KNOTD, ['-V'], { stdio: 'ignore' }).status === 0;

export interface Secondary {
  readonly name: 'bind' | 'knot';
  readonly port: number;
  /** What the server logged. */
  log(): string;
  /** Stops the server (it can be started again with `start`). */
  stop(): Promise<void>;
  start(): void;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

function run(name: 'bind' | 'knot', dir: string, port: number, command: string, args: string[], logFile: string): Secondary {
  let child: ChildProcess | undefined;
  const start = () => {
    child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
    child.stderr?.on('data', (chunk: Buffer) => writeFileSync(logFile, chunk, { flag: 'a' }));
  };
  const stop = async () => {
    const c = child;
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGTERM');
    const deadline = setTimeout(() => c.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(deadline);
  };
  start();
  return {
    name,
    port,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    stop,
    start,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** BIND as a secondary of `catalog` from zoneward at `primaryPort`. */
export function startBind(port: number, primaryPort: number, catalog: string): Secondary {
  if (NAMED === undefined) throw new Error('named is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'zoneward-bind-'));
  const primaries = `{ 127.0.0.1 port ${primaryPort}; }`;
  writeFileSync(
    join(dir, 'named.conf'),
    `options {
  directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  managed-keys-directory "${dir}";
  allow-new-zones yes;
  recursion no;
  notify no;
  dnssec-validation no;
  catalog-zones {
    zone "${catalog}" default-primaries ${primaries} in-memory yes min-update-interval 1;
  };
};
controls { };
zone "${catalog}" { type secondary; primaries ${primaries}; file "${dir}/catalog.db"; };
`,
  );
  return run('bind', dir, port, NAMED, ['-g', '-c', join(dir, 'named.conf')], join(dir, 'named.log'));
}

/** Knot as a secondary of `catalog` from zoneward at `primaryPort`. */
export function startKnot(port: number, primaryPort: number, catalog: string): Secondary {
  if (KNOTD === undefined) throw new Error('knotd is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'zoneward-knot-'));
  writeFileSync(
    join(dir, 'knot.conf'),
    `server:
  rundir: "${dir}"
  listen: 127.0.0.1@${port}
database:
  storage: "${dir}"
control:
  listen: "${dir}/knot.sock"
log:
  - target: stderr
    any: info
remote:
  - id: zoneward
    address: 127.0.0.1@${primaryPort}
acl:
  - id: from_zoneward
    address: 127.0.0.1
    action: notify
template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    zonefile-load: none
    journal-content: none
  - id: member
    master: zoneward
    acl: from_zoneward
    storage: "${dir}"
    zonefile-sync: -1
    zonefile-load: none
    journal-content: none
zone:
  - domain: ${catalog}
    master: zoneward
    acl: from_zoneward
    catalog-role: interpret
    catalog-template: member
`,
  );
  return run('knot', dir, port, KNOTD, ['-c', join(dir, 'knot.conf')], join(dir, 'knot.log'));
}
