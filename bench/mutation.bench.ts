/**
 * Not a measurement: Stryker takes 10–20 minutes, so `npm run bench` does not run it. This
 * module copies the score table of the last `npm run mutation` from docs/mutation.md into
 * docs/benchmarks.md, with that run's date, so every figure the project tracks is on one page.
 */
import { readFileSync } from 'node:fs';

const page = readFileSync(new URL('../docs/mutation.md', import.meta.url), 'utf8');
const start = page.indexOf('## Latest run');
const end = page.indexOf('\n## ', start + 1);
const latest = start < 0 ? 'No run recorded in docs/mutation.md.' : page.slice(start + '## Latest run'.length, end < 0 ? undefined : end).trim();
console.log(`## Mutation testing (copied from docs/mutation.md, not re-run)

\`npm run mutation\` (Stryker 9, vitest runner) over the pure core; details, survivors and how to widen
the mutated set are in docs/mutation.md.

${latest}`);
