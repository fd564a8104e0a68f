/**
 * Model-based test of the DNS service: random command sequences over zones, transfer requests and
 * accepts, DNS quotas, recordsets (read) imports and exports, by several projects,
 * an admin with and without all-projects, a sudo admin and an anonymous caller. Every answer's
 * status, error type and key fields must agree with the simple model in dns-model.ts.
 *
 * ZONEWARD_MODEL_RUNS raises the number of runs (default keeps the suite around half a minute).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createDnsService } from '../../src/index.js';
import { configArb, dnsCommandArbs, newModel, newSut, outcomes } from './dns-model.js';

const RUNS = Number(process.env['ZONEWARD_MODEL_RUNS'] ?? 0) || 1000;

let sequences = 0;
let commands = 0;

afterAll(() => {
  if (process.env['ZONEWARD_MODEL_STATS'] === undefined) return;
  console.log(`${sequences} sequences, ${commands} commands`);
  for (const [k, v] of [...outcomes].sort()) console.log(`${String(v).padStart(7)}  ${k}`);
});

/** Per-test time limit that grows with the number of runs (the config's 60 s fits the defaults). */
const TIMEOUT = 60_000 + RUNS * 150;

describe('DNS service against its model', () => {
  it(`agrees with the model over random command sequences (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(configArb, fc.commands(dnsCommandArbs(), { size: '+1' }), async (config, cmds) => {
        sequences++;
        commands += [...cmds].length;
        const real = newSut(config);
        await fc.asyncModelRun(() => ({ model: newModel(config), real }), cmds);
        // Whatever state the sequence reached, a snapshot restores into a service holding exactly it.
        const snapshot = await real.dns.snapshot();
        const restored = createDnsService({ tasks: 'inline', from: JSON.parse(JSON.stringify(snapshot)) as typeof snapshot });
        expect(await restored.snapshot()).toEqual(snapshot);
        const all = { projectId: 'ops', roles: ['admin'], allProjects: true };
        for (const dns of [real.dns, restored]) await dns.tasks.settle();
        expect((await restored.zones.list(all, { limit: 'max' }))._unsafeUnwrap()).toEqual((await real.dns.zones.list(all, { limit: 'max' }))._unsafeUnwrap());
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
