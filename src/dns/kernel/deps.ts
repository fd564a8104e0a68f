import type { CommandEnv } from '../../kernel/command.js';
import type { NamePolicyCache } from './name-policy.js';
import type { EventBus } from './events.js';
import type { TaskRunner } from './tasks.js';
import type { ZoneLimits } from './zone-rules.js';
import type { ZoneQuotaLimits } from './zone-quotas.js';
import type { ZoneBody } from './zone.js';
import type { MasterPort } from '../../ports/master.js';

/**
 * A pool of nameservers zones are served from.
 *
 * @category Zones
 */
export interface PoolConfig {
  /** The pool's UUID (a zone's `pool_id`). */
  readonly id: string;
  /** A name for people (`GET /v2/pools` shows the id when there is none). */
  readonly name?: string;
  /** The pool's NS records, in creation order: the first one is the SOA's MNAME. */
  readonly nameservers: readonly Nameserver[];
  /** Free text `GET /v2/pools` shows. @defaultValue null */
  readonly description?: string | null;
  /** Scheduler attributes `GET /v2/pools` shows. @defaultValue {} */
  readonly attributes?: Readonly<Record<string, string>>;
}

/**
 * One nameserver of a pool, as `GET /v2/zones/{id}/nameservers` lists it.
 *
 * @category Zones
 */
export interface Nameserver {
  /** Fully qualified host name, with its trailing dot. */
  readonly hostname: string;
  /** Priority among the pool's nameservers. */
  readonly priority: number;
}

/**
 * The pool manager's view of the DNS servers: where zones are pushed. A rejected promise is a
 * failure, which leaves the zone in `ERROR`.
 *
 * @category Zones
 */
export interface PoolTargetPort {
  /** Puts a new zone on the servers. */
  createZone(zone: ZoneBody): Promise<void>;
  /** Pushes a changed zone. */
  updateZone(zone: ZoneBody): Promise<void>;
  /** Removes a zone from the servers. */
  deleteZone(zone: ZoneBody): Promise<void>;
}

/**
 * The body of `GET /v2/zones/{id}/nameservers`.
 *
 * @category Zones
 */
export interface NameserversBody {
  /** The zone's pool nameservers, in pool order. */
  readonly nameservers: readonly Nameserver[];
}

/** The DNS service's link base when none is given. @internal */
export const DEFAULT_DNS_BASE_URL = 'http://localhost:9001';

/** Everything a DNS command needs, injected once per service. @internal */
export interface DnsDeps extends CommandEnv {
  readonly baseUrl: string;
  readonly clock: () => Date;
  readonly ids: () => string;
  readonly random: () => number;
  readonly limits: ZoneLimits;
  readonly quotaDefaults: ZoneQuotaLimits;
  readonly pools: readonly PoolConfig[];
  readonly defaultPool: PoolConfig;
  readonly events: EventBus;
  readonly tasks: TaskRunner;
  readonly poolTargets: PoolTargetPort;
  /** How SECONDARY zones reach their masters; none: they never transfer. */
  readonly masters: MasterPort | undefined;
  /** Whether zone pushes finish inside the command (`'inline'` mode with the default targets). */
  readonly inlinePush: boolean;
  /** The last TLDs and blacklist a zone create read, kept while they do not change. */
  readonly namePolicy: NamePolicyCache;
  /** Whether the pool targets are the default ones, which accept at once: a push task is then one transaction. */
  readonly instantTargets: boolean;
}


/**
 * The pool a zone is served from, with the NS records the zone holds: a zone keeps its own copy
 * once its pool's `ns_records` were changed through the API (see `pools.update`).
 * @internal
 */
export function zonePool(deps: Pick<DnsDeps, 'pools' | 'defaultPool'>, zone: { readonly poolId: string; readonly nameservers?: readonly Nameserver[] }): PoolConfig {
  const pool = deps.pools.find((p) => p.id === zone.poolId) ?? deps.defaultPool;
  return zone.nameservers === undefined ? pool : { ...pool, nameservers: zone.nameservers };
}
