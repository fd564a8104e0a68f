/** The router: static segments win over parameters at every level, whatever the order of the table's lines. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRoutes, NOT_ALLOWED, NOT_FOUND, type RouteTable } from '../../../src/adapters/http/router.js';

const table: RouteTable<string> = {
  'GET /zones/{id}': 'zone',
  'PATCH /zones/{id}': 'zone-update',
  '* /zones/tasks': NOT_FOUND,
  'GET /zones/tasks/imports': 'imports',
  'GET /zones/tasks/imports/{id}': 'import',
  '* /zones/tasks/{name}': NOT_FOUND,
  'GET /zones/{id}/recordsets/{rid}': 'recordset',
  '* /zones/{id}/{name}': NOT_FOUND,
  'POST /zones/{id}/{name}': NOT_ALLOWED,
};

/** The same table with its lines in another order. */
const reordered = (order: readonly number[]): RouteTable<string> => {
  const entries = Object.entries(table);
  return Object.fromEntries(order.map((i) => entries[i]!));
};

const cases: [string, string, unknown][] = [
  ['GET', '/zones/abc', { kind: 'action', action: 'zone', params: ['abc'] }],
  ['GET', '/zones/tasks', { kind: 'not_found' }],
  ['DELETE', '/zones/abc', { kind: 'not_allowed', allow: 'GET, PATCH' }],
  ['GET', '/zones/tasks/imports', { kind: 'action', action: 'imports', params: [] }],
  ['POST', '/zones/tasks/imports', { kind: 'not_allowed', allow: 'GET' }],
  ['GET', '/zones/tasks/exports', { kind: 'not_found' }],
  ['GET', '/zones/z1/recordsets/r1', { kind: 'action', action: 'recordset', params: ['z1', 'r1'] }],
  // A static branch that ends nowhere gives way to the parameter.
  ['GET', '/zones/tasks/recordsets/r1', { kind: 'action', action: 'recordset', params: ['tasks', 'r1'] }],
  ['POST', '/zones/z1/other', { kind: 'not_allowed', allow: '' }],
  ['GET', '/zones/z1/other', { kind: 'not_found' }],
  ['GET', '/nope', { kind: 'not_found' }],
];

describe('compileRoutes', () => {
  it('routes by method and path, static segments first', () => {
    const route = compileRoutes(table);
    for (const [method, path, expected] of cases) expect(route(method, path.split('/').slice(1)), `${method} ${path}`).toEqual(expected);
  });

  it('answers the same whatever the order of the lines', () => {
    const n = Object.keys(table).length;
    fc.assert(
      fc.property(fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }), (order) => {
        const route = compileRoutes(reordered(order));
        for (const [method, path, expected] of cases) expect(route(method, path.split('/').slice(1))).toEqual(expected);
      }),
    );
  });

  it('refuses a malformed line', () => {
    expect(() => compileRoutes({ 'zones/{id}': 'x' })).toThrow(TypeError);
  });
});
