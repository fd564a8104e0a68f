const HEX = /^[0-9a-fA-F]{32}$/;

/**
 * Whether a path id is UUID-shaped as the real service's router accepts it: 32 hex digits,
 * hyphens, braces and case optional.
 * @internal
 */
export function isUuidLike(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 38) return false;
  let s = value;
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  return HEX.test(s.replaceAll('-', ''));
}
