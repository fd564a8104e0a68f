/** SVCB/HTTPS service parameters (RFC 9460), read and presented as dnspython does. */
import { formatIPv6, fromBase64, parseIPv4, parseIPv6, toBase64 } from './codec.js';
import { EOF, EOL, QUOTED, type Lexer } from './lexer.js';
import type { RdataOut } from './rdata.js';

const KEYS = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint'];

function keyFromText(lx: Lexer, t: string): number {
  const known = KEYS.indexOf(t);
  if (known >= 0) return known;
  // Newer than the reference parser, which knows it only as key7 (and presents it so).
  if (t === 'dohpath') return 7;
  if (t.startsWith('key') && t.length > 3 && t.length <= 8) {
    let v = 0;
    for (let i = 3; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c < 48 || c > 57) lx.fail(`unknown service parameter key "${t}"`);
      v = v * 10 + c - 48;
    }
    if (t.length > 4 && t.charCodeAt(3) === 48) lx.fail(`service parameter key "${t}" has a leading zero`);
    if (v <= 65535) return v;
  }
  return lx.fail(`unknown service parameter key "${t}": use a name such as alpn or key<n>`);
}

function keyToText(k: number): string {
  return KEYS[k] ?? `key${k}`;
}

/** Unescapes a parameter value into bytes (\DDD and \X). */
function unescape(lx: Lexer, t: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 92) {
      const d = t.charCodeAt(i + 1);
      if (d >= 48 && d <= 57) {
        const v = Number(t.slice(i + 1, i + 4));
        if (!(v <= 255) || i + 3 >= t.length + 0 || !/^\d{3}$/.test(t.slice(i + 1, i + 4))) lx.fail('bad \\DDD escape in a service parameter');
        out.push(v);
        i += 3;
      } else if (i + 1 < t.length) {
        out.push(d);
        i++;
      } else {
        lx.fail('a service parameter value ends with a backslash');
      }
    } else if (c < 0x80) {
      out.push(c);
    } else {
      for (const b of new TextEncoder().encode(String.fromCodePoint(t.codePointAt(i) ?? 0))) out.push(b);
      if ((t.codePointAt(i) ?? 0) > 0xffff) i++;
    }
  }
  return out;
}

function escapeBytes(b: readonly number[]): string {
  let out = '';
  for (const c of b) {
    if (c === 0x22 || c === 0x5c) out += '\\' + String.fromCharCode(c);
    else if (c >= 0x20 && c < 0x7f) out += String.fromCharCode(c);
    else out += '\\' + String(c).padStart(3, '0');
  }
  return out;
}

function splitAlpn(lx: Lexer, b: readonly number[]): number[][] {
  const ids: number[][] = [];
  let cur: number[] = [];
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x5c) {
      if (i + 1 >= b.length) lx.fail('an alpn value ends with a lone backslash');
      cur.push(b[++i]!);
    }
    else if (c === 0x2c) {
      ids.push(cur);
      cur = [];
    } else cur.push(c);
  }
  ids.push(cur);
  return ids;
}

function alpnLevel2(id: readonly number[]): number[] {
  const out: number[] = [];
  for (const c of id) {
    if (c === 0x2c || c === 0x5c) out.push(0x5c);
    out.push(c);
  }
  return out;
}

/** Splits on unescaped commas, keeping escapes in each part. */
function splitList(lx: Lexer, t: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '\\' && i + 1 < t.length) {
      cur += c + t[i + 1]!;
      i++;
    } else if (c === ',') {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  if (parts.some((p) => p.length === 0)) lx.fail('a service parameter list has an empty item (check the commas)');
  return parts;
}

export function readSvcbParams(o: RdataOut): { text: string; values: Record<string, unknown> } {
  const lx = o.lx;
  const params = new Map<number, { text: string | null; value: unknown }>();
  for (;;) {
    const k = lx.next();
    if (k === EOL || k === EOF) {
      lx.unget();
      break;
    }
    if (k === QUOTED) lx.fail('a service parameter must be key=value, found a quoted string');
    const tok = lx.text();
    const wordEnd = lx.end;
    const eq = tok.indexOf('=');
    let keyText: string;
    let value: string | null;
    if (eq === 0) lx.fail('a service parameter cannot start with "="');
    if (eq === tok.length - 1) {
      keyText = tok.slice(0, -1);
      const k2 = lx.next();
      if (k2 !== QUOTED || lx.start !== wordEnd + 1) lx.fail(`no value after "${tok}": write ${tok}"value" without spaces`);
      value = lx.text();
    } else if (eq > 0) {
      keyText = tok.slice(0, eq);
      value = tok.slice(eq + 1);
    } else {
      keyText = tok;
      value = null;
    }
    const key = keyFromText(lx, keyText);
    if (params.has(key)) lx.fail(`duplicate service parameter ${keyText}`);
    // dohpath (RFC 9461 §5) is a URI Template; spelled as opaque key7 it may be empty (as dnspython reads it).
    if (key === 7 && (keyText === 'dohpath' || (value !== null && value !== ''))) checkDohpath(lx, value);
    params.set(key, parseValue(lx, key, value));
  }
  const mandatory = params.get(0);
  if (mandatory) {
    for (const k of mandatory.value as number[]) {
      if (!params.has(k)) lx.fail(`service parameter ${keyToText(k)} is declared mandatory but is not present`);
    }
  }
  if (params.has(2) && !params.has(1)) lx.fail('no-default-alpn needs an alpn parameter too');
  const keys = [...params.keys()].sort((x, y) => x - y);
  const texts: string[] = [];
  const values: Record<string, unknown> = {};
  for (const k of keys) {
    const p = params.get(k)!;
    texts.push(p.text === null ? keyToText(k) : `${keyToText(k)}="${p.text}"`);
    values[keyToText(k)] = p.value;
  }
  return { text: texts.join(' '), values };
}

const OPERATORS = '+#./;?&=,!@|';

/**
 * RFC 9461 §5: dohpath is a relative URI Template (RFC 6570) that yields an HTTP :path, so it
 * starts with "/", and it has a "dns" variable. Expressions are `{` [operator] varspec *("," varspec) `}`.
 */
function checkDohpath(lx: Lexer, value: string | null): void {
  if (value === null || value === '') return lx.fail('dohpath needs a value: a URI Template such as /dns-query{?dns}');
  const b = unescape(lx, value);
  const bad = (why: string): never => lx.fail(`dohpath "${escapeBytes(b)}" is not a URI Template with a dns variable: ${why}`);
  if (b[0] !== 0x2f) bad('it must start with "/"');
  let dns = false;
  const isVarchar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || ((c | 32) >= 0x61 && (c | 32) <= 0x7a) || c === 0x5f || c === 0x25;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x7b) {
      const close = b.indexOf(0x7d, i);
      if (close < 0) bad('an expression is not closed');
      let j = i + 1;
      if (j < close && OPERATORS.includes(String.fromCharCode(b[j]!))) j++;
      for (const spec of String.fromCharCode(...b.slice(j, close)).split(',')) {
        const m = /^([A-Za-z0-9_%]+(?:\.[A-Za-z0-9_%]+)*)(?::[1-9]\d{0,3}|\*)?$/.exec(spec);
        if (!m) bad(`"${spec}" is not a variable`);
        else if (m[1] === 'dns') dns = true;
      }
      i = close;
    } else if (c <= 0x20 || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3e || c === 0x5c || c === 0x5e || c === 0x60 || c === 0x7c || c === 0x7d || c === 0x7f) {
      bad(`character ${c < 0x21 || c === 0x7f ? `\\${String(c).padStart(3, '0')}` : String.fromCharCode(c)} cannot appear in a URI Template literal`);
    } else if (c === 0x25 && !(isVarchar(b[i + 1] ?? 0) && isVarchar(b[i + 2] ?? 0))) {
      bad('"%" must start a percent-encoded octet');
    }
  }
  if (!dns) bad('there is no {?dns} (or other) expression naming the dns variable');
}

function parseValue(lx: Lexer, key: number, value: string | null): { text: string | null; value: unknown } {
  const name = keyToText(key);
  if (key === 2) {
    if (value !== null && value !== '') lx.fail('no-default-alpn takes no value');
    return { text: null, value: true };
  }
  if (value === null || value === '') {
    if (key > 6) return { text: null, value: '' };
    return lx.fail(`service parameter ${name} needs a value`);
  }
  switch (key) {
    case 0: {
      const ks = splitList(lx, value).map((t) => keyFromText(lx, t));
      if (ks.includes(0)) lx.fail('mandatory cannot list itself');
      const sorted = [...new Set(ks)].sort((x, y) => x - y);
      if (sorted.length !== ks.length) lx.fail('mandatory lists a key twice');
      return { text: sorted.map(keyToText).join(','), value: sorted };
    }
    case 1: {
      // Two levels of escaping (RFC 9460 Appendix A.1): presentation escapes, then `\,` and `\\` inside the list.
      const ids = splitAlpn(lx, unescape(lx, value));
      if (ids.some((id) => id.length === 0 || id.length > 255)) lx.fail('each alpn identifier must be 1 to 255 octets');
      return { text: ids.map((id) => escapeBytes(alpnLevel2(id))).join(','), value: ids.map((id) => String.fromCharCode(...id)) };
    }
    case 3: {
      if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) lx.fail(`port "${value}" must be a number from 0 to 65535`);
      return { text: String(Number(value)), value: Number(value) };
    }
    case 4: {
      const addrs = splitList(lx, value);
      for (const x of addrs) if (!parseIPv4(x, 0, x.length)) lx.fail(`ipv4hint "${x}" is not an IPv4 address`);
      return { text: addrs.join(','), value: addrs };
    }
    case 5: {
      const b = fromBase64(value);
      if (b === null) return lx.fail('ech must be base64');
      const text = toBase64(b);
      return { text, value: text };
    }
    case 6: {
      const addrs = splitList(lx, value).map((x) => {
        const b = parseIPv6(x, 0, x.length);
        if (b === null) return lx.fail(`ipv6hint "${x}" is not an IPv6 address`);
        return formatIPv6(b);
      });
      return { text: addrs.join(','), value: addrs };
    }
    default: {
      const b = unescape(lx, value);
      return { text: escapeBytes(b), value: String.fromCharCode(...b) };
    }
  }
}
