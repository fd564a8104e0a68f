/**
 * Model-based test of the DNS service: random command sequences over zones, transfer requests and
 * accepts, DNS quotas, recordsets (read) imports and exports, by several projects,
 * an admin with and without all-projects, a sudo admin and an anonymous caller. Every answer's
 * status, error type and key fields must agree with the simple model in dns-model.ts.
 *
 * ZONEWARD_MODEL_RUNS raises the number of runs (default keeps the suite around half a minute).
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
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
        await fc.asyncModelRun(() => ({ model: newModel(config), real: newSut(config) }), cmds);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
