/**
 * The module hooks of bench/loader.mjs: `.ts` files compiled one by one with esbuild as tsup
 * compiles the package (ESM, target node20, no `keepNames`), and a relative `./x.js` that does
 * not exist read as `./x.ts`, as TypeScript's own resolution of the sources' imports does.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
    if (relative && specifier.endsWith('.js')) return next(`${specifier.slice(0, -3)}.ts`, context);
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !/\.[cm]?ts$/.test(url)) return next(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: path,
  });
  return { format: 'module', source: code, shortCircuit: true };
}
