/**
 * The five quota kinds of the secrets service, in the order the real service writes them.
 *
 * @category Quotas
 */
export type QuotaKind = 'secrets' | 'orders' | 'containers' | 'consumers' | 'cas';

/** The kinds in output order; every body is built in this order so JSON matches byte for byte. @internal */
export const QUOTA_KINDS: readonly QuotaKind[] = Object.freeze(['secrets', 'orders', 'containers', 'consumers', 'cas']);

/** Whether `value` names a kind (own names only, so `__proto__` or `constructor` never is). @internal */
export const isQuotaKind = (value: unknown): value is QuotaKind =>
  typeof value === 'string' && (QUOTA_KINDS as readonly string[]).includes(value);

/**
 * One integer per kind: effective quotas, or the service defaults. Any negative value is
 * unconstrained, 0 disables the kind, a positive value is the maximum.
 *
 * @category Quotas
 */
export interface QuotaValues {
  /** Secrets the project may hold. */
  readonly secrets: number;
  /** Orders the project may hold. */
  readonly orders: number;
  /** Containers the project may hold. */
  readonly containers: number;
  /** Consumers the project may register. */
  readonly consumers: number;
  /** Certificate authorities the project may create. */
  readonly cas: number;
}

/**
 * A project's configured quotas: like {@link QuotaValues}, where `null` means the default applies
 * to that kind.
 *
 * @category Quotas
 */
export type ConfiguredQuotas = { readonly [K in keyof QuotaValues]: number | null };

/** Builds a per-kind object in output order (insertion order is what JSON shows). @internal */
export const perKind = <T>(f: (kind: QuotaKind) => T): { [K in QuotaKind]: T } => ({
  secrets: f('secrets'),
  orders: f('orders'),
  containers: f('containers'),
  consumers: f('consumers'),
  cas: f('cas'),
});

/**
 * One configured record as the list shows it.
 *
 * @category Quotas
 */
export interface ProjectQuotasRecord {
  /** The project the record belongs to. */
  readonly project_id: string;
  /** Its configured values; `null` where the default applies. */
  readonly project_quotas: ConfiguredQuotas;
}
