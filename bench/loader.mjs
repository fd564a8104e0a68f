/**
 * `node --import ./bench/loader.mjs bench/x.bench.ts`: runs the benches' TypeScript as the
 * published package is compiled (esbuild, target node20, nothing added), where tsx would add
 * esbuild's `keepNames`: a `__name(fn, "…")` call (a `defineProperty`) on every closure made,
 * which in code that makes closures per call (a transaction's guards, a request's exchange)
 * cost up to a sixth of the time measured. `npm run bench` and the `bench/ab` scripts use it.
 */
import { register } from 'node:module';

register('./loader-hooks.mjs', import.meta.url);
