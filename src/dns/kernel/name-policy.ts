import type { StorageTransaction } from '../../ports/storage.js';
import { CorruptValue } from '../../kernel/command.js';
import { tupleKey } from '../../kernel/keys.js';
import { isInteger, isPlainObject, isString, orNull, repository, shapeCheck, type Collection, type Repository } from '../../kernel/stored.js';
import type { Nameserver } from './deps.js';
import type { ListScope } from '../../kernel/list-query.js';
import { anyPattern, compilePattern, type CompiledPattern } from './pattern.js';

/**
 * What every zone create reads that admins change through the API: the rules on zone names (TLDs
 * and blacklist patterns) and the pools' nameservers as changed through `/v2/pools`. Their
 * records and repositories live here, in the kernel, because the zone create path needs them
 * and the `tlds`, `blacklists` and `pools` concepts, which write them, may not be imported by it.
 */

/** A TLD as stored. @internal */
export interface StoredTld {
  readonly id: string;
  /** As given: the real service compares TLDs case-sensitively. */
  readonly name: string;
  readonly description: string | null;
  /** Epoch microseconds. */
  readonly createdAt: number;
  readonly updatedAt: number | null;
}

/** A blacklist entry as stored. @internal */
export interface StoredBlacklist {
  readonly id: string;
  /** A Python regular expression, searched for in zone names. */
  readonly pattern: string;
  readonly description: string | null;
  /** Epoch microseconds. */
  readonly createdAt: number;
  readonly updatedAt: number | null;
}

/** Collections of the TLDs and of the blacklist. @internal */
export const TLDS = 'dns.tlds';
/** @internal */
export const BLACKLISTS = 'dns.blacklists';
const BY_CREATED = 'created';
/** The unique index of each: the TLD's name, the blacklist's pattern. */
const BY_NAME = 'name';

const META = 'dns.meta';
/** The row whose token changes with every write to either collection or to the pools' nameservers. */
const POLICY_TOKEN = 'name-policy';
/** The row of the nameservers of each pool whose `ns_records` were changed through the API. */
const POOL_NAMESERVERS = 'pool-nameservers';

type Named = { readonly id: string; readonly createdAt: number };

function namedCollection<T extends Named>(name: string, unique: (e: T) => string, shape: Parameters<typeof shapeCheck>[0]): Collection<T> {
  return {
    name,
    problem: shapeCheck(shape),
    idOf: (e) => e.id,
    keys: (e) => ({ [BY_CREATED]: tupleKey(e.createdAt), [BY_NAME]: tupleKey(unique(e)) }),
  };
}

const tldCollection = namedCollection<StoredTld>(TLDS, (t) => t.name, {
  id: isString,
  name: isString,
  description: orNull(isString),
  createdAt: isInteger,
  updatedAt: orNull(isInteger),
});
const blacklistCollection = namedCollection<StoredBlacklist>(BLACKLISTS, (b) => b.pattern, {
  id: isString,
  pattern: isString,
  description: orNull(isString),
  createdAt: isInteger,
  updatedAt: orNull(isInteger),
});

/** The repository of one of the two collections, with its unique lookup and list scope. @internal */
export interface NameRuleRepository<T extends Named> extends Repository<T> {
  /** The entity holding `unique` (a TLD's name, a blacklist's pattern), exactly. */
  readonly byUnique: (tx: StorageTransaction, unique: string) => Promise<T | undefined>;
  /** Every entity, in creation order. */
  readonly all: (tx: StorageTransaction) => Promise<T[]>;
  /** The whole collection in (created_at, id) order, as lists read it. */
  readonly listScope: ListScope<T>;
}

function nameRuleRepository<T extends Named>(c: Collection<T>): NameRuleRepository<T> {
  const base = repository(c);
  return {
    ...base,
    byUnique: async (tx, unique) => (await base.range(tx, BY_NAME, { prefix: tupleKey(unique), exact: true, limit: 1 }))[0]?.value,
    all: async (tx) => (await base.range(tx, BY_CREATED)).map((e) => e.value),
    listScope: { collection: c, index: BY_CREATED, prefix: '', keyOf: (e) => tupleKey(e.createdAt) },
  };
}

/** The TLDs. @internal */
export const tldRepository = nameRuleRepository(tldCollection);
/** The blacklist. @internal */
export const blacklistRepository = nameRuleRepository(blacklistCollection);

/**
 * What a zone name is checked against: the TLDs (configured and stored) and the blacklist; and
 * the nameservers a new zone of a pool takes where they were changed through the API.
 * @internal
 */
export interface NamePolicy {
  readonly tlds: ReadonlySet<string>;
  /** Every pattern (configured and stored) as one automaton: one pass over a name for all. */
  readonly blacklist: CompiledPattern;
  /** By pool id; a pool absent here has its configured nameservers. */
  readonly nameservers: ReadonlyMap<string, readonly Nameserver[]>;
}

/**
 * The service's memory of the last policy it read, by token: a create reads one row to learn
 * whether TLDs or patterns changed, and rebuilds the set and the automaton only then. The
 * token lives in the storage, written by the transaction that changes the rules, so every
 * service over one database sees every other's changes at its next create.
 * @internal
 */
export interface NamePolicyCache {
  token: string | undefined;
  policy: NamePolicy | undefined;
  /** The configured patterns, compiled once (the option's array is fixed for a service). */
  configured: { readonly from: readonly string[]; readonly patterns: readonly CompiledPattern[] } | undefined;
}

/** An empty cache, one per service. @internal */
export function namePolicyCache(): NamePolicyCache {
  return { token: undefined, policy: undefined, configured: undefined };
}

const tokenProblem = shapeCheck({ token: isString });

/** The policy of frozen options with no stored rule, by those options: a pure function's memo, shared by the services given them. */
const withoutStoredRules = new WeakMap<object, NamePolicy>();

/** The revision a token starts with: 0 for none, or one written before tokens counted. */
const revisionOf = (token: string | undefined): number => {
  const n = token === undefined ? NaN : Number.parseInt(token, 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

async function readToken(tx: StorageTransaction): Promise<string | undefined> {
  const row = await tx.get(META, POLICY_TOKEN);
  if (row === undefined) return undefined;
  const problem = tokenProblem(row);
  if (problem !== undefined) throw new CorruptValue(META, POLICY_TOKEN, problem);
  return (row as { readonly token: string }).token;
}

/**
 * Marks the stored rules as changed, inside the transaction that changed them. The token is a
 * revision counted up from the stored one and a fresh id: the id alone could repeat when two
 * services share a database with deterministic id sources (each would then keep its stale
 * policy), and the count alone restarts after a reset.
 * @internal
 */
export async function touchNamePolicy(tx: StorageTransaction, id: string): Promise<void> {
  const token = `${revisionOf(await readToken(tx)) + 1}:${id}`;
  await tx.put(META, POLICY_TOKEN, Object.freeze({ token }), {});
}

/**
 * The rules a zone name is checked against: the configured ones (`limits.tlds`,
 * `limits.blacklist`) and the stored ones, read through the cache when nothing changed since.
 * Stored patterns were checked when written; one that no longer compiles (written by another
 * version) blacklists every name, as the real service does with a pattern it cannot evaluate.
 * @internal
 */
export async function readNamePolicy(
  tx: StorageTransaction,
  cache: NamePolicyCache,
  configured: { readonly tlds: readonly string[]; readonly blacklist: readonly string[] },
): Promise<NamePolicy> {
  // Every write of a rule writes the token in its transaction, so no token means no stored rule
  // (a snapshot holding rules without it is refused on restore: see `rulesWithoutToken`).
  const token = (await readToken(tx)) ?? NO_RULES;
  if (cache.token === token && cache.policy !== undefined) return cache.policy;
  if (token === NO_RULES) {
    // Nothing stored: the policy is the options' alone, the same for every service given the same
    // (frozen) limits, as every service made with the defaults is; a fresh service per test
    // would otherwise compile it at its first create.
    let policy = withoutStoredRules.get(configured);
    if (policy === undefined) {
      policy = { tlds: new Set(configured.tlds), blacklist: anyPattern(usablePatterns(configured.blacklist)), nameservers: new Map() };
      if (Object.isFrozen(configured) && Object.isFrozen(configured.tlds) && Object.isFrozen(configured.blacklist)) withoutStoredRules.set(configured, policy);
    }
    cache.token = token;
    cache.policy = policy;
    return policy;
  }
  const tlds = await tldRepository.all(tx);
  const stored = await blacklistRepository.all(tx);
  const nameservers = await readPoolNameservers(tx);
  if (cache.configured?.from !== configured.blacklist) {
    cache.configured = { from: configured.blacklist, patterns: usablePatterns(configured.blacklist) };
  }
  const patterns = [...cache.configured.patterns];
  for (const b of stored) patterns.push(compilePattern(b.pattern).unwrapOr(EVERYTHING));
  const policy: NamePolicy = { tlds: new Set([...configured.tlds, ...tlds.map((t) => t.name)]), blacklist: anyPattern(patterns), nameservers };
  cache.token = token;
  cache.policy = policy;
  return policy;
}

const poolNameserversProblem = shapeCheck({ pools: isPlainObject });

async function readPoolNameservers(tx: StorageTransaction): Promise<Map<string, readonly Nameserver[]>> {
  const row = await tx.get(META, POOL_NAMESERVERS);
  const out = new Map<string, readonly Nameserver[]>();
  if (row === undefined) return out;
  const problem = poolNameserversProblem(row);
  if (problem !== undefined) throw new CorruptValue(META, POOL_NAMESERVERS, problem);
  for (const [id, list] of Object.entries((row as { readonly pools: Readonly<Record<string, unknown>> }).pools)) {
    if (!isNameserverList(list)) throw new CorruptValue(META, POOL_NAMESERVERS, `pools.${id}: not a list of nameservers`);
    out.set(id, list);
  }
  return out;
}

/**
 * Records a pool's nameservers as changed through the API, inside the transaction that changed
 * them, so that zones created in the pool from then on take them.
 * @internal
 */
export async function writePoolNameservers(tx: StorageTransaction, poolId: string, nameservers: readonly Nameserver[], tokenId: string): Promise<void> {
  const pools = Object.fromEntries(await readPoolNameservers(tx));
  pools[poolId] = nameservers.map((n) => Object.freeze({ hostname: n.hostname, priority: n.priority }));
  await tx.put(META, POOL_NAMESERVERS, Object.freeze({ pools }), {});
  await touchNamePolicy(tx, tokenId);
}

/** A list of nameservers as a row holds them: host names with integer priorities. @internal */
export function isNameserverList(v: unknown): v is readonly Nameserver[] {
  return Array.isArray(v) && v.every((n) => isPlainObject(n) && typeof n.hostname === 'string' && Number.isSafeInteger(n.priority));
}

/** The token of a storage where no rule was ever written (a written token is never empty). */
const NO_RULES = '';

/**
 * Whether a snapshot holds TLDs or blacklist patterns without the token row that announces them
 * to zone creates: no snapshot taken by the service does (the row is written with every rule).
 * @internal
 */
export function rulesWithoutToken(collections: Readonly<Record<string, readonly { readonly id: string }[] | undefined>>): boolean {
  const rules = (collections[TLDS]?.length ?? 0) + (collections[BLACKLISTS]?.length ?? 0);
  return rules > 0 && !(collections[META] ?? []).some((row) => row.id === POLICY_TOKEN);
}

function usablePatterns(patterns: readonly string[]): CompiledPattern[] {
  return patterns.flatMap((p) => compilePattern(p).match((c) => [c], () => []));
}

/** The usable patterns of the `limits.blacklist` option as one automaton; one the matcher cannot use is skipped. @internal */
export function configuredPatterns(patterns: readonly string[]): CompiledPattern {
  return anyPattern(usablePatterns(patterns));
}

/** `re.search('', name)`: true for every name. */
const EVERYTHING: CompiledPattern = compilePattern('')._unsafeUnwrap();
