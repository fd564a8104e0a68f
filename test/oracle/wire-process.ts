/**
 * The real services' HTTP APIs (`../shared/tools/designate-api`, `../shared/tools/barbican-api`:
 * Designate 15 and Barbican 15 from Debian, behind their no-auth middleware) started on a free
 * port of 127.0.0.1 for one suite, and stopped by their PID after it. Skipped where Debian's
 * python3 cannot import the service.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../dns/secondary/nsd.js';
import { requirement, type Requirement } from '../support/requires.js';

const PYTHON = '/usr/bin/python3';
const TOOLS = process.env['ZONEWARD_TOOLS_DIR'] ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/tools');

export type WireService = 'designate-api' | 'barbican-api';

const MODULE: Record<WireService, string> = { 'designate-api': 'designate.api.v2', 'barbican-api': 'barbican.api.app' };

/** Whether the service can run here: its folder and its Debian package. */
export function wireAvailable(service: WireService): boolean {
  if (!existsSync(join(TOOLS, service, 'serve.py'))) return false;
  return spawnSync(PYTHON, ['-c', `import ${MODULE[service]}`], { stdio: 'ignore' }).status === 0;
}

/** What a suite against a real API on the wire needs. */
export const wireRequirement = (service: WireService): Requirement =>
  requirement(service, wireAvailable(service), `${join(TOOLS, service)}/serve.py (the workplace's ../shared/tools) and its Python package`);

/** One running real API. */
export class WireProcess {
  private constructor(
    private readonly child: ChildProcess,
    /** `http://127.0.0.1:<port>` */
    readonly origin: string,
  ) {}

  /** Starts the service and resolves once it listens (its first line says so). */
  static async start(service: WireService): Promise<WireProcess> {
    const port = await freePort();
    const child = spawn(PYTHON, ['serve.py', String(port)], { cwd: join(TOOLS, service), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    await new Promise<void>((ready, fail) => {
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        if (line.includes(`127.0.0.1:${port}`)) ready();
      });
      child.once('exit', (code) => fail(new Error(`${service} exited (${code}) before listening: ${stderr}`)));
    });
    return new WireProcess(child, `http://127.0.0.1:${port}`);
  }

  stop(): void {
    if (this.child.pid !== undefined && this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}
