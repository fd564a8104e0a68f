#!/usr/bin/env node
/* global process, setTimeout, clearTimeout */
// The upstream suite rig: Debian's designate-tempest-plugin API tests
// (`designate_tempest_plugin.tests.api`), unchanged, against `zoneward serve` or against the real
// Designate 15 API, with nothing but a generated tempest.conf and pre-provisioned accounts.
//
//   node test/tempest/rig.mjs [--target zoneward|real] [--workers N] [--record] [--check] [--keep]
//
// --target zoneward (default) runs `zoneward serve` from the source tree; --target real runs
//   ../shared/tools/designate-api behind this repo's identity endpoint (test/tempest/real-target.ts).
// --record writes what passed: for `real`, test/tempest/real-passes.txt (re-run when the rig
//   changes); for `zoneward`, test/tempest/must-pass.txt (the ratchet: every test zoneward passes
//   that the real service passes too).
// --check exits 1 when a test of must-pass.txt did not pass (the CI gate).
// Prints passed/failed/skipped beside the real service's figures.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const target = value('--target', 'zoneward');
const workers = Number(value('--workers', target === 'real' ? '1' : '2'));
if (target !== 'zoneward' && target !== 'real') throw new Error(`--target must be zoneward or real, not ${target}`);

const SUITE = '^designate_tempest_plugin\\.tests\\.api\\.';
const ADMIN_TAG = 'zoneward-tempest-admin';
const PASSWORD = 'tempest-password';
const files = {
  realPasses: relative(process.cwd(), join(here, 'real-passes.txt')),
  realFailures: relative(process.cwd(), join(here, 'real-failures.json')),
  mustPass: relative(process.cwd(), join(here, 'must-pass.txt')),
};

/** A free TCP port on the loopback. */
const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

/**
 * Accounts in the order tempest hands them out (the first free one that fits): members first, so
 * `primary` and `alt` (any non-admin account) get members; then readers; then the project admin,
 * whose extra role ADMIN_TAG (tempest's `admin_role`, never in a token) tells it apart from the
 * system admin, which also holds `admin`. Each worker holds at most primary, alt and
 * project_member (members), project_reader, admin, system_admin and system_reader at once.
 */
function accounts(n) {
  const list = [];
  for (let i = 1; i <= 4 * n; i++) list.push({ name: `member${i}`, project: `project-member${i}`, roles: ['member'] });
  for (let i = 1; i <= n + 1; i++) list.push({ name: `reader${i}`, project: `project-reader${i}`, roles: ['reader'] });
  for (let i = 1; i <= n + 1; i++) list.push({ name: `admin${i}`, project: `project-admin${i}`, roles: ['admin'], tag: true });
  for (let i = 1; i <= n + 1; i++) list.push({ name: `sysadmin${i}`, system: true, roles: ['admin'] });
  for (let i = 1; i <= n + 1; i++) list.push({ name: `sysreader${i}`, system: true, roles: ['reader'] });
  return list;
}

const yamlAccounts = (list) =>
  list
    .map((a) => {
      const roles = a.tag ? [...a.roles, ADMIN_TAG] : a.roles;
      const scope = a.system ? `  system: all\n` : `  project_name: '${a.project}'\n  project_domain_name: 'Default'\n`;
      return `- username: '${a.name}'\n  user_domain_name: 'Default'\n  password: '${PASSWORD}'\n${scope}  roles: [${roles.map((r) => `'${r}'`).join(', ')}]\n`;
    })
    .join('');

/** The identity endpoint's users: the same accounts, with the roles a token carries. */
const identityConfig = (list) => ({
  users: list.map((a) => ({
    name: a.name,
    password: PASSWORD,
    assignments: [a.system ? { system: true, roles: a.roles } : { project: a.project, roles: a.roles }],
  })),
});

/** Options that match a Designate 15 (Zed) deployment left at its defaults. */
const tempestConf = (dir, port) => `[DEFAULT]
log_dir = ${dir}/logs
log_file = tempest.log

[oslo_concurrency]
lock_path = ${dir}/tempest_lock

[auth]
use_dynamic_credentials = False
test_accounts_file = ${dir}/etc/accounts.yaml
default_credentials_domain_name = Default
create_isolated_networks = False

[identity]
uri_v3 = http://127.0.0.1:${port}/identity/v3
auth_version = v3
region = RegionOne
admin_role = ${ADMIN_TAG}
default_domain_id = default

[identity-feature-enabled]
api_v2 = False

[dns]
endpoint_type = publicURL
catalog_type = dns
build_interval = 1
build_timeout = 60

[dns_feature_enabled]
api_v2 = True
api_admin = False
api_v2_root_recordsets = True
api_v2_quotas = True
api_v2_quotas_verify_project = False
bug_1573141_fixed = True
enforce_new_defaults = False

[enforce_scope]
designate = False

[service_available]
designate = True
neutron = False
nova = False
cinder = False
glance = False
swift = False
`;

/**
 * Starts a process and resolves once it printed `ready` (a regular expression) on stdout; all it
 * prints (a request log) goes on to `log`, for a developer reading why a test failed.
 */
function start(command, commandArgs, ready, log) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let up = false;
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command} did not start in 60 s:\n${output}`)), 60_000);
    const seen = (chunk) => {
      appendFileSync(log, chunk);
      if (up) return;
      output += chunk;
      if (ready.test(output)) {
        up = true;
        clearTimeout(timer);
        ok(child);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${command} exited with ${code}:\n${output}`));
    });
  });
}

/** What a command prints on stdout, without blocking the event loop. */
const output = (command, commandArgs, cwd) =>
  new Promise((ok, fail) => {
    const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.once('exit', (code) => (code === 0 ? ok(out) : fail(new Error(`${command} ${commandArgs.join(' ')} exited with ${code}:\n${err.slice(-4000)}`))));
  });

const stop = (child) =>
  new Promise((ok) => {
    if (child.exitCode !== null) return ok();
    child.once('exit', () => ok());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      ok();
    }
  });

const readList = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#'))
    : [];

/** `test_id [id-…,smoke]` → `test_id`: names stay stable when tags change. */
const bare = (id) => id.replace(/\[.*\]$/, '');

async function main() {
  // --results <workspace>: read a kept workspace's last run again instead of running.
  const reuse = value('--results', undefined);
  const dir = reuse ?? mkdtempSync(join(tmpdir(), `zoneward-tempest-${target}-`));
  const port = await freePort();
  const config = join(dir, 'zoneward.json');
  if (reuse === undefined) {
    execFileSync('tempest', ['init', dir], { stdio: 'ignore' });
    const list = accounts(workers);
    writeFileSync(join(dir, 'etc', 'accounts.yaml'), yamlAccounts(list));
    writeFileSync(join(dir, 'etc', 'tempest.conf'), tempestConf(dir, port));
    writeFileSync(config, JSON.stringify({ identity: identityConfig(list) }, null, 2));
  }

  const children = [];
  const started = Date.now();
  // Discovery takes half a minute: it runs while the servers start.
  let removeWorkspace = false;
  const listing = output('tempest', ['run', '--list-tests', '--regex', SUITE], dir);
  listing.catch(() => undefined);
  try {
    if (reuse !== undefined) {
      // nothing to start
    } else if (target === 'zoneward') {
      children.push(
        await start('npx', ['tsx', 'test/tempest/zoneward-serve.ts', 'serve', '--port', String(port), '--config', config, '--forbidden-status', '403'], /zoneward serving/, join(dir, 'logs', 'server.log')),
      );
    } else {
      const api = join(process.env.ZONEWARD_TOOLS_DIR ?? resolve(root, '..', 'shared', 'tools'), 'designate-api', 'serve.py');
      if (!existsSync(api)) throw new Error(`the real API is not at ${api} (set ZONEWARD_TOOLS_DIR)`);
      const apiPort = await freePort();
      children.push(await start('/usr/bin/python3', [api, String(apiPort)], /real designate API/, join(dir, 'logs', 'designate-api.log')));
      children.push(await start('npx', ['tsx', 'test/tempest/real-target.ts', String(port), `http://127.0.0.1:${apiPort}`, config], /identity in front/, join(dir, 'logs', 'server.log')));
    }
    const listed = (await listing)
      .split('\n')
      .filter((l) => l.startsWith('designate_tempest_plugin.'))
      .map(bare);
    const all = [...new Set(listed)].sort();
    process.stdout.write(`rig: ${all.length} tests, ${workers} worker(s), target ${target}, workspace ${dir}\n`);
    if (reuse === undefined) try {
      execFileSync('tempest', ['run', '--regex', SUITE, '--concurrency', String(workers)], { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'], timeout: 30 * 60_000 });
    } catch {
      // tempest exits 1 when any test fails; the results below say which.
    }
    // `stestr last` and subunit2csv exit 1 when the run had failures.
    const csv = execFileSync('sh', ['-c', 'stestr last --subunit > last.subunit; subunit2csv < last.subunit || true'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
    const status = new Map();
    for (const line of csv.split('\n').slice(1)) {
      // Ids with tags hold commas and come quoted; no id holds a quote.
      const m = /^(?:"([^"]*)"|([^,]*)),([^,]*),/.exec(line);
      if (m !== null) status.set(bare(m[1] ?? m[2]), m[3]);
    }
    // A class whose setup was skipped or failed reports no test of its own: each takes the setup's status.
    for (const t of all) {
      if (!status.has(t)) status.set(t, status.get(`setUpClass (${t.slice(0, t.lastIndexOf('.'))})`) ?? 'not run');
    }
    // An expected failure (`xfail`) is a test that did what its author expects.
    const ok = (t) => status.get(t) === 'success' || status.get(t) === 'xfail';
    const passed = all.filter(ok);
    const skipped = all.filter((t) => status.get(t) === 'skip');
    const failed = all.filter((t) => !ok(t) && status.get(t) !== 'skip');
    const seconds = Math.round((Date.now() - started) / 1000);
    report(all, passed, failed, skipped, seconds, status);
    if (flag('--keep') || reuse !== undefined) process.stdout.write(`rig: workspace kept at ${dir}\n`);
    else removeWorkspace = true;
    return check(passed, failed);
  } finally {
    for (const child of children.reverse()) await stop(child);
    // Only once the servers are gone: they write their logs into it until then.
    if (removeWorkspace) rmSync(dir, { recursive: true, force: true });
  }
}

function report(all, passed, failed, skipped, seconds, status) {
  const realPasses = new Set(readList(files.realPasses));
  const mustPass = new Set(readList(files.mustPass));
  process.stdout.write(`\n${target}: ${passed.length} passed, ${failed.length} failed, ${skipped.length} skipped of ${all.length} (${seconds} s)\n`);
  if (realPasses.size > 0) {
    process.stdout.write(`the real service (${files.realPasses}): ${realPasses.size} passed of ${all.length}\n`);
    if (target === 'zoneward') {
      const both = passed.filter((t) => realPasses.has(t));
      process.stdout.write(`zoneward passes ${both.length} of the real service's ${realPasses.size}; the ratchet holds ${mustPass.size}\n`);
    }
  }
  const setupErrors = [...status.keys()].filter((k) => k.startsWith('setUpClass') || k.startsWith('tearDownClass')).filter((k) => !['success', 'skip', 'xfail'].includes(status.get(k)));
  if (setupErrors.length > 0) process.stdout.write(`class setups/teardowns that failed: ${setupErrors.length}\n${setupErrors.map((k) => `  ${k}`).join('\n')}\n`);
  if (flag('--verbose')) process.stdout.write(`failed:\n${failed.map((t) => `  ${t}`).join('\n')}\n`);
}

function check(passed, failed) {
  const header = (what) => `# ${what}\n# Written by \`node test/tempest/rig.mjs --target ${target} --record\`; one test id a line.\n`;
  if (flag('--record') && target === 'real') {
    writeFileSync(files.realPasses, header('The designate-tempest-plugin API tests that pass on the real Designate 15 API under this rig.') + passed.join('\n') + '\n');
    const reasons = JSON.parse(readFileSync(files.realFailures, 'utf8'));
    const unexplained = failed.filter((t) => !Object.keys(reasons).some((pattern) => new RegExp(pattern).test(t)));
    process.stdout.write(`recorded ${passed.length} tests in ${files.realPasses}\n`);
    if (unexplained.length > 0) process.stdout.write(`real failures with no reason in ${files.realFailures}:\n${unexplained.map((t) => `  ${t}`).join('\n')}\n`);
  }
  if (flag('--record') && target === 'zoneward') {
    const real = new Set(readList(files.realPasses));
    const ratchet = passed.filter((t) => real.has(t));
    writeFileSync(files.mustPass, header('The ratchet: tests that pass on the real service and on zoneward; CI fails when one of them fails on zoneward. Only ever add.') + ratchet.join('\n') + '\n');
    process.stdout.write(`recorded ${ratchet.length} tests in ${files.mustPass}\n`);
  }
  if (flag('--check')) {
    const passing = new Set(passed);
    const broken = readList(files.mustPass).filter((t) => !passing.has(t));
    if (broken.length > 0) {
      process.stdout.write(`\nFAIL: ${broken.length} test(s) of ${files.mustPass} did not pass on ${target}:\n${broken.map((t) => `  ${t}`).join('\n')}\n`);
      return 1;
    }
    process.stdout.write(`every test of ${files.mustPass} passed\n`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`rig: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
