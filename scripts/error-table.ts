/**
 * docs/errors.md, generated from the code: every command of `DnsService` and `QuotaService`
 * (found by walking their interfaces, so a new command group or command appears by itself) with
 * the error codes its `@errors` tag lists, each checked against the `ErrorType` union.
 * `npx tsx scripts/error-table.ts --write` rewrites the file; test/docs/error-table.test.ts fails
 * while it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ERRORS_MD = join(root, 'docs', 'errors.md');

interface Row {
  readonly command: string;
  readonly route: string;
  readonly errors: readonly { code: string; status: string }[] | undefined;
}

const text = (parts: readonly ts.SymbolDisplayPart[] | string | undefined): string =>
  parts === undefined ? '' : typeof parts === 'string' ? parts : parts.map((p) => p.text).join('');

/** The rows of one service interface, commands in declaration order. */
function rowsOf(checker: ts.TypeChecker, service: ts.Type, prefix: string, known: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  for (const property of service.getProperties()) {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    if (declaration === undefined) continue;
    const type = checker.getTypeOfSymbolAtLocation(property, declaration);
    const signatures = type.getCallSignatures();
    if (signatures.length > 0) {
      // A command answers a ResultAsync; the service's own methods (snapshot, reset, ...) do not.
      const returns = checker.typeToString(signatures[0]!.getReturnType());
      if (!returns.startsWith('ResultAsync<')) continue;
      const tags = property.getJsDocTags(checker);
      const errorsTag = tags.find((t) => t.name === 'errors');
      const summary = text(property.getDocumentationComment(checker));
      const route = /`((?:GET|POST|PUT|PATCH|DELETE) \/[^`]*)`/.exec(summary)?.[1] ?? '';
      let errors: Row['errors'];
      if (errorsTag !== undefined) {
        // `@errors none of its own`: listed, and nothing beyond what every command answers.
        errors = [...text(errorsTag.text).matchAll(/`([a-z_]+)` (\d{3}(?:\/\d{3})*)/g)].map((m) => ({ code: m[1]!, status: m[2]! }));
        for (const e of errors) if (!known.has(e.code)) throw new Error(`${prefix}.${property.name}: @errors names \`${e.code}\`, which is not an ErrorType`);
      }
      rows.push({ command: `${prefix}.${property.name}`, route, errors });
    } else if (type.getProperties().some((p) => checker.getTypeOfSymbolAtLocation(p, declaration).getCallSignatures().length > 0)) {
      rows.push(...rowsOf(checker, type, `${prefix}.${property.name}`, known));
    }
  }
  return rows;
}

interface Services {
  readonly dns: Row[];
  readonly quotas: Row[];
}

/** Every command of both services with its documented errors, read from the service interfaces. */
function services(): Services {
  const program = ts.createProgram([join(root, 'src', 'index.ts')], { strict: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(join(root, 'src', 'index.ts'));
  if (index === undefined) throw new Error('src/index.ts not found');
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(index)!);
  const exported = (name: string): ts.Type => {
    const symbol = exports.find((s) => s.name === name);
    if (symbol === undefined) throw new Error(`src/index.ts does not export ${name}`);
    return checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
  };
  const union = exported('ErrorType');
  const known = new Set((union.isUnion() ? union.types : [union]).filter((t) => t.isStringLiteral()).map((t) => (t).value));
  const found = { dns: rowsOf(checker, exported('DnsService'), 'dns', known), quotas: rowsOf(checker, exported('QuotaService'), 'quotas', known) };
  // A command whose errors nobody listed would make the catalogue silently partial.
  const unlisted = [...found.dns, ...found.quotas].filter((r) => r.errors === undefined).map((r) => r.command);
  if (unlisted.length > 0) throw new Error(`no @errors tag on: ${unlisted.join(', ')} (write \`@errors none of its own\` where that is so)`);
  return found;
}

/**
 * The documented errors of every command (`dns.zones.create`, `quotas.projectQuotas.list`, ...):
 * each type with the statuses its tag names. What test/proof/bad-input.test.ts holds the
 * commands' real answers to.
 */
export function documentedErrors(): ReadonlyMap<string, ReadonlyMap<string, readonly number[]>> {
  const { dns, quotas } = services();
  return new Map([...dns, ...quotas].map((r) => [r.command, new Map(r.errors!.map((e) => [e.code, e.status.split('/').map(Number)]))]));
}

/** The Markdown of docs/errors.md. */
export function errorTable(): string {
  const { dns, quotas } = services();
  const render = (rows: readonly Row[]): string[] =>
    rows.map((r) => {
      const errors = r.errors!.length === 0 ? '—' : r.errors!.map((e) => `\`${e.code}\` ${e.status}`).join(', ');
      return `| \`${r.command}\` | ${r.route === '' ? '' : `\`${r.route}\``} | ${errors} |`;
    });
  const head = ['| command | HTTP | its own errors (type and status) |', '| --- | --- | --- |'];
  return [
    '# Errors: which command answers what',
    '',
    '<!-- Generated by scripts/error-table.ts from the `@errors` tags of the service interfaces; do not edit. -->',
    '',
    'Every failure is an `ApiError` whose `type` is one of `DnsErrorType` or `QuotaErrorType`',
    '(string-literal unions: a misspelt type does not compile). Besides the errors listed for it,',
    'any command can answer the caller\'s: 401 `authentication_required` or `missing_project_id`,',
    '401 or 403 `forbidden` (403 with `forbiddenStatus: 403`); and 500 `storage_failure` or',
    '`unknown` when the storage fails (nothing is then written); a create, 500 `duplicate_id` when the',
    'id source gives an id already held (an id source that repeats itself). Over HTTP (`zoneward/http`) any',
    'request can also be answered 400 `invalid_json` / `malformed_json`, 404 `not_found`,',
    '405 `method_not_allowed`, 413 `request_too_large` or 415 `unsupported_content_type` before a',
    'command runs. On node:http (`toNodeListener`), a `Host` header that is not `host[:port]` is',
    'answered 400 in plain text, and the connection closed, before the handler sees the request.',
    '',
    '## DNS service (`createDnsService`)',
    '',
    ...head,
    ...render(dns),
    '',
    '## Quota service (`createQuotaService`)',
    '',
    ...head,
    ...render(quotas),
    '',
  ].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const table = errorTable();
  if (process.argv.includes('--write')) writeFileSync(ERRORS_MD, table);
  else if (readFileSync(ERRORS_MD, 'utf8') !== table) {
    process.stderr.write('docs/errors.md is stale: run npx tsx scripts/error-table.ts --write\n');
    process.exitCode = 1;
  }
}
