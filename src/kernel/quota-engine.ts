/**
 * The one quota arithmetic both services use (the secrets service's project quotas and the DNS
 * service's zone quotas): pure functions over plain numbers, no I/O, no allocation, so a server
 * can call them on every create.
 *
 * A limit means: any negative number is unconstrained (the services document -1, but treating every
 * negative alike keeps a stray -2 from becoming a hard zero), 0 disables the resource, and a
 * positive N is the maximum.
 */

/**
 * The limit that applies: the configured value where there is one, else the default.
 *
 * `null` and `undefined` both mean "nothing configured": the secrets service shows a kind that was
 * never configured as `null`, and the DNS service simply has no override row.
 *
 * @param configured - the project's own value, if any
 * @param fallback - the service-wide default for that kind
 * @returns the limit to enforce
 * @category Quotas
 */
export function effectiveLimit(configured: number | null | undefined, fallback: number): number {
  return configured ?? fallback;
}

/**
 * Whether a limit leaves the resource unconstrained (any negative value).
 *
 * @param limit - an effective limit
 * @returns true when no amount of use is refused
 * @category Quotas
 */
export function isUnconstrained(limit: number): boolean {
  return limit < 0;
}

/**
 * Whether taking `requested` more of a resource with `inUse` already taken goes over `limit`.
 *
 * The rule is the real services' "prospective value strictly greater than the limit", and it is
 * the same rule for every limit, which is what makes `requested = 0` mean something consistent:
 * asking for nothing is refused only when the project is already over its limit (for a limit of
 * 0, when anything is in use at all). So a positive limit refuses exactly when
 * `inUse + requested > limit`, a limit of 0 refuses every positive request, and a negative limit
 * never refuses.
 *
 * Counts are taken as given (non-negative integers); callers that receive them from outside
 * validate them first.
 *
 * @param limit - the effective limit (negative: unconstrained, 0: disabled, N: maximum)
 * @param inUse - how much the project holds now
 * @param requested - how much more it asks for
 * @returns true when the request must be refused
 * @category Quotas
 */
export function exceedsQuota(limit: number, inUse: number, requested: number): boolean {
  return limit >= 0 && inUse + requested > limit;
}
