/**
 * The real DNS service (OpenStack Designate 15's central service, from Debian's
 * python3-designate) run in-process by `../shared/tools/designate-oracle/serve.py`, driven over
 * its JSON-lines protocol. The differential suites ask it and zoneward the same questions in the
 * same order and compare the answers.
 *
 * It is found relative to the repository (`../shared/tools/designate-oracle`, or
 * `ZONEWARD_ORACLE_DIR`), and only used when Debian's `/usr/bin/python3` can import `designate`;
 * otherwise the suites are skipped, as the conformance suite is without its corpus.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { requirement, type Requirement } from '../support/requires.js';

const PYTHON = '/usr/bin/python3';

/** Where serve.py lives. */
export function oracleDir(): string {
  return process.env['ZONEWARD_ORACLE_DIR'] ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/tools/designate-oracle');
}

/** Whether the oracle can run here: its folder and Debian's python3-designate. */
export function oracleAvailable(): boolean {
  if (!existsSync(join(oracleDir(), 'serve.py'))) return false;
  return spawnSync(PYTHON, ['-c', 'import designate.central'], { stdio: 'ignore' }).status === 0;
}

/**
 * The installed python3-designate's Debian version, or null where dpkg does not know it. The
 * reference describes 15.0.2 (its security backport changes the cross-project messages), so an
 * older package would make the suite report differences that are the package's, not ours.
 */
/** What the suites against the real DNS service need. */
export const oracleRequirement = (): Requirement =>
  requirement('designate-oracle', oracleAvailable(), `${oracleDir()}/serve.py (the workplace's ../shared/tools) and python3-designate`);

export function oracleVersion(): string | null {
  const q = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'python3-designate'], { encoding: 'utf8' });
  return q.status === 0 && q.stdout !== '' ? q.stdout : null;
}

/** Whether Debian version `a` is at least `b` (dpkg's own comparison). */
export function debianVersionAtLeast(a: string, b: string): boolean {
  return spawnSync('dpkg', ['--compare-versions', a, 'ge', b], { stdio: 'ignore' }).status === 0;
}

/** An error as the oracle reports it. */
export interface OracleError {
  readonly error: string;
  readonly error_type: string | null;
  readonly code: number | null;
  readonly message: string;
}

export const isOracleError = (v: unknown): v is OracleError => typeof v === 'object' && v !== null && 'error' in v && 'message' in v;

/** One running oracle: a fresh real service with an empty database. */
export class Oracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: ((line: string) => void)[] = [];
  private readonly ready: Promise<void>;
  private stderr = '';

  constructor() {
    this.child = spawn(PYTHON, ['serve.py'], { cwd: oracleDir(), stdio: 'pipe' });
    this.child.stderr.on('data', (d: Buffer) => {
      // Kept only for the failure message: the service logs a lot on start.
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    const lines = createInterface({ input: this.child.stdout });
    let resolveReady: () => void = () => undefined;
    this.ready = new Promise((r) => (resolveReady = r));
    lines.on('line', (line) => {
      if (line.startsWith('{"ready"')) resolveReady();
      else this.pending.shift()?.(line);
    });
    this.child.on('exit', (code) => {
      const failure = `designate oracle exited (${code}): ${this.stderr}`;
      for (const waiter of this.pending.splice(0)) waiter(JSON.stringify({ error: 'OracleExited', message: failure }));
    });
  }

  /** Calls one method of the oracle (`harness.Oracle`) and returns its JSON answer. */
  async ask(op: string, args: Record<string, unknown>): Promise<unknown> {
    await this.ready;
    const answer = new Promise<string>((r) => this.pending.push(r));
    this.child.stdin.write(`${JSON.stringify({ op, args })}\n`);
    const parsed = JSON.parse(await answer) as unknown;
    if (isOracleError(parsed) && parsed.error === 'OracleExited') throw new Error(parsed.message);
    return parsed;
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
