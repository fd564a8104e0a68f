import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ERRORS_MD, errorTable } from '../../scripts/error-table.js';

it('docs/errors.md is the table the service interfaces generate (npx tsx scripts/error-table.ts --write)', () => {
  expect(readFileSync(ERRORS_MD, 'utf8')).toBe(errorTable());
}, 120_000);
