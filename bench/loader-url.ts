/**
 * The `--import` argument that makes a child Node process compile TypeScript as the published
 * package is compiled (bench/loader.mjs: no tsx `keepNames` wrappers), for the benches that
 * measure in child processes.
 */
export const LOADER = new URL('./loader.mjs', import.meta.url).href;
