const MAX_PROJECT_ID_LENGTH = 255;

/** Whether `s` is well-formed UTF-16 (no lone surrogate) without control characters. @internal */
export function isCleanText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/**
 * Whether a project id taken from a path is one the services may store and echo: 1 to 255
 * characters (the real services' column size) of well-formed text without control characters.
 * Neither service checks the UUID form, so neither does this.
 * @internal
 */
export function isProjectId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_PROJECT_ID_LENGTH && isCleanText(value);
}
