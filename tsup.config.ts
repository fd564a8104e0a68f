import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    zonefile: 'src/zonefile/index.ts',
    testing: 'src/testing/index.ts',
    postgres: 'src/adapters/postgres/index.ts',
    http: 'src/adapters/http/index.ts',
    axfr: 'src/adapters/axfr/index.ts',
    'dns-server': 'src/adapters/dns-server/index.ts',
    server: 'src/server/index.ts',
    // What bin/zoneward.mjs runs; not an export of the package.
    cli: 'src/server/cli.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // The conformance suite registers vitest tests; vitest stays the user's own (optional peer).
  external: ['vitest', 'pg'],
});
