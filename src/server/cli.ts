import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startServer, type ServerOptions } from './server.js';

const USAGE = `Usage: zoneward serve [options]

Serves the DNS API (/v2), the quota API (/v1), a Keystone v3-compatible identity endpoint
(/identity/v3) and test endpoints (/zoneward/) on one port. It is a test double: whoever reaches it
can log in as anyone.

Options:
  --port <n>                 TCP port (default 9001; 0 picks a free one)
  --host <address>           address to bind (default 127.0.0.1)
  --base-path <path>         serve every route under this prefix
  --database <url>           keep state in PostgreSQL (postgres://…) instead of memory
  --snapshot <file>          start from this JSON file when it exists; save to it on exit
  --config <file>            a JSON file with any of: port, host, basePath, database, snapshot,
                             dns (pools, quotas, limits, forbiddenStatus, tasks, …),
                             quotas (defaults, paging, forbiddenStatus), identity (users, projects, …)
  --dns-port <n>             also answer the zones over DNS (UDP and TCP) on this port of --host
                             (0 picks a free one); see zoneward/dns-server
  --forbidden-status <401|403>  status of a policy refusal, both services (default 401)
  --tasks <auto|inline|manual>  the DNS service's task mode (default auto)
  --quiet                    no line per request
  --help                     this text
`;

/** A configuration file's contents: {@link ServerOptions} plus the snapshot file's name. */
type Config = ServerOptions & { readonly snapshot?: string };

const TASK_MODES = ['auto', 'inline', 'manual'];

/**
 * Runs `zoneward <args>`: the `serve` command until SIGINT or SIGTERM, when it closes the server
 * (saving the snapshot). Returns the process's exit code for usage errors.
 */
export async function main(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        'dns-port': { type: 'string' },
        host: { type: 'string' },
        'base-path': { type: 'string' },
        database: { type: 'string' },
        snapshot: { type: 'string' },
        config: { type: 'string' },
        'forbidden-status': { type: 'string' },
        tasks: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (cause) {
    process.stderr.write(`zoneward: ${cause instanceof Error ? cause.message : String(cause)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'serve') {
    process.stderr.write(USAGE);
    return 2;
  }
  const fail = (message: string): number => {
    process.stderr.write(`zoneward: ${message}\n`);
    return 2;
  };
  let config: Config = {};
  if (values.config !== undefined) {
    try {
      config = JSON.parse(await readFile(values.config, 'utf8')) as Config;
    } catch (cause) {
      return fail(`cannot read ${values.config}: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    if (config === null || typeof config !== 'object' || Array.isArray(config)) return fail(`${values.config} does not hold a JSON object`);
  }
  const port = values.port === undefined ? config.port : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) return fail(`--port must be a port number, not ${values.port}`);
  const dnsPort = values['dns-port'] === undefined ? config.dnsPort : Number(values['dns-port']);
  if (dnsPort !== undefined && !(Number.isInteger(dnsPort) && dnsPort >= 0 && dnsPort < 65536)) return fail(`--dns-port must be a port number, not ${values['dns-port']}`);
  let forbiddenStatus: 401 | 403 | undefined;
  if (values['forbidden-status'] !== undefined) {
    if (values['forbidden-status'] !== '401' && values['forbidden-status'] !== '403') return fail('--forbidden-status must be 401 or 403');
    forbiddenStatus = Number(values['forbidden-status']) as 401 | 403;
  }
  if (values.tasks !== undefined && !TASK_MODES.includes(values.tasks)) return fail(`--tasks must be one of ${TASK_MODES.join(', ')}`);
  const tasks = values.tasks as NonNullable<ServerOptions['dns']>['tasks'];
  const database = values.database ?? config.database;
  const snapshotFile = values.snapshot ?? config.snapshot ?? config.snapshotFile;
  const basePath = values['base-path'] ?? config.basePath;
  const options: ServerOptions = {
    ...config,
    ...(port === undefined ? {} : { port }),
    ...(dnsPort === undefined ? {} : { dnsPort }),
    host: values.host ?? config.host ?? '127.0.0.1',
    ...(basePath === undefined ? {} : { basePath }),
    ...(database === undefined ? {} : { database }),
    ...(snapshotFile === undefined ? {} : { snapshotFile }),
    dns: { ...config.dns, ...(forbiddenStatus ? { forbiddenStatus } : {}), ...(tasks ? { tasks } : {}) },
    quotas: { ...config.quotas, ...(forbiddenStatus ? { forbiddenStatus } : {}) },
    ...(values.quiet === true ? { log: false as const } : {}),
  };
  let server;
  try {
    server = await startServer(options);
  } catch (cause) {
    process.stderr.write(`zoneward: cannot start: ${cause instanceof Error ? cause.message : String(cause)}\n`);
    return 1;
  }
  const dnsNote = server.dnsPort === undefined ? '' : `, DNS on ${options.host ?? '127.0.0.1'} port ${server.dnsPort}`;
  process.stdout.write(`zoneward serving ${server.url} (identity ${server.url}/identity/v3)${dnsNote}${snapshotFile === undefined ? '' : `, snapshot ${snapshotFile}`}\n`);
  const running = server;
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.stdout.write(`zoneward: ${signal}, closing\n`);
      running.close().then(() => {
        process.stdout.write(`zoneward: closed${snapshotFile === undefined ? '' : `, state saved to ${snapshotFile}`}\n`);
        resolve();
      }, (cause: unknown) => {
        process.stderr.write(`zoneward: close failed: ${cause instanceof Error ? cause.message : String(cause)}\n`);
        process.exitCode = 1;
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return process.exitCode === undefined ? 0 : Number(process.exitCode);
}
