/**
 * NSD (from Debian) serving several zones on 127.0.0.1, a free port, its own temporary
 * directory: the reference the differential test asks the same questions as zoneward.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NSD } from '../../dns/secondary/nsd.js';

export interface RunningServer {
  readonly port: number;
  /** What the server logged (why a zone did not load). */
  log(): string;
  stop(): Promise<void>;
}

/** Starts NSD with `zones` (name → zone file text); resolves once every zone is loaded or failed. */
export async function startNsdZones(zones: ReadonlyMap<string, string>): Promise<RunningServer> {
  if (NSD === undefined) throw new Error('nsd is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'zoneward-nsd-many-'));
  const port = await freePort();
  const conf = [
    'server:',
    `  ip-address: 127.0.0.1@${port}`,
    `  zonesdir: "${dir}"`,
    `  pidfile: "${dir}/nsd.pid"`,
    `  xfrdfile: "${dir}/xfrd.state"`,
    `  zonelistfile: "${dir}/zone.list"`,
    '  username: ""',
    '  chroot: ""',
    `  logfile: "${dir}/nsd.log"`,
    '  server-count: 1',
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
  return { port, log, stop };
}
