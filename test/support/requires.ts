/**
 * The one way a test says it needs something the repository does not hold: a program (NSD,
 * BIND, Knot, the Python clients), a service (PostgreSQL, the real Designate and Barbican), or
 * the workplace's `../shared` tree. Where it is missing, a developer's run skips the test and
 * names what is missing and how to get it; a run with `CI=true` fails instead, so CI can never go
 * green by skipping. The test's body is never collected when it is skipped, so nothing in it
 * (a generated zone, a started process) runs for nothing.
 */
import { describe, it } from 'vitest';

/** Something a test needs from outside the repository, and whether this machine has it. */
export interface Requirement {
  /** What is needed, e.g. `'nsd'`. */
  readonly what: string;
  /** Why it is missing and how to get it; undefined when it is here. */
  readonly missing: string | undefined;
  /** Whether it comes from the workplace (`../shared`) rather than from a program or service. */
  readonly workplace: boolean;
}

/**
 * A requirement, checked once.
 *
 * @param what - what is needed, e.g. `'named-checkzone'`
 * @param available - whether this machine has it
 * @param remedy - how to get it, e.g. `'apt-get install bind9-utils'`
 */
export const requirement = (what: string, available: boolean, remedy: string): Requirement => ({
  what,
  missing: available ? undefined : `${what} is missing (${remedy})`,
  workplace: /\.\.\/shared|ZONEWARD_CONFORMANCE_DIR/.test(remedy),
});

/**
 * CI's second run, in a fresh clone with no `../shared` beside it (`.ci/run` sets
 * `ZONEWARD_CI_ALONE=1`), checks that the repository stands alone: what needs the workplace
 * skips and names it, and every pure test passes without it. A test that needs only programs and
 * services CI installed (and nothing of the workplace) ran in CI's first run with the very same
 * programs, so this run skips it, saying so, instead of running it twice.
 */
const ranInFirstRun = (needs: readonly Requirement[]): string | undefined =>
  process.env['ZONEWARD_CI_ALONE'] === '1' && needs.length > 0 && needs.every((r) => r.missing === undefined && !r.workplace)
    ? `needs only ${needs.map((r) => r.what).join(', ')}, which CI's first run had: it ran there`
    : undefined;

/** Whether this run is CI's, where a missing requirement is a failure. */
export const inCi = (): boolean => process.env['CI'] === 'true';

const missingOf = (needs: Requirement | readonly Requirement[]): string | undefined => {
  const missing = (Array.isArray(needs) ? needs : [needs]).flatMap((r: Requirement) => (r.missing === undefined ? [] : [r.missing]));
  return missing.length === 0 ? undefined : missing.join('; ');
};

const failInCi = (missing: string) => (): never => {
  throw new Error(`CI=true, and a requirement of this test is missing: ${missing}. .ci/run must install it.`);
};

/**
 * A `describe` that runs where every requirement is met; elsewhere its body is not collected: a
 * skipped test names what is missing, or under `CI=true` a failing one does.
 */
export function describeWith(needs: Requirement | readonly Requirement[], title: string, body: () => void): void {
  const missing = missingOf(needs);
  const ran = ranInFirstRun(Array.isArray(needs) ? needs : [needs]);
  if (ran !== undefined) describe(title, () => it.skip(`skipped: ${ran}`, () => undefined));
  else if (missing === undefined) describe(title, body);
  else if (inCi()) describe(title, () => it(`needs ${missing}`, failInCi(missing)));
  else describe(title, () => it.skip(`skipped: ${missing}`, () => undefined));
}

/** An `it` that runs where every requirement is met; elsewhere it is skipped naming what is missing, or fails under `CI=true`. */
export function itWith(needs: Requirement | readonly Requirement[], title: string, fn: () => unknown, timeout?: number): void {
  const missing = missingOf(needs);
  const ran = ranInFirstRun(Array.isArray(needs) ? needs : [needs]);
  if (ran !== undefined) it.skip(`${title} (skipped: ${ran})`, () => undefined);
  else if (missing === undefined) it(title, fn, timeout);
  else if (inCi()) it(`${title} (needs ${missing})`, failInCi(missing));
  else it.skip(`${title} (skipped: ${missing})`, () => undefined);
}
