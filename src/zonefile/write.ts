/** The master-file writer: `$ORIGIN`, `$TTL`, SOA first, then one line per record with absolute names. */
import type { WriteZoneFileOptions, ZoneFileInput, ZoneRecord } from './types.js';

/** Lines per chunk: each chunk is flattened once, so the final join copies flat strings. */
const CHUNK = 256;

function line(r: ZoneRecord): string {
  return r.name + ' ' + String(r.ttl) + ' ' + r.class + ' ' + r.type + ' ' + r.rdata + '\n';
}

/** Owner (case-insensitive), then type, then rdata; owners lower-cased once per record, not per comparison. */
function sorted(records: readonly ZoneRecord[]): ZoneRecord[] {
  const keyed = records.map((r) => ({ r, key: r.name.toLowerCase() }));
  keyed.sort((x, y) => {
    if (x.key !== y.key) return x.key < y.key ? -1 : 1;
    const a = x.r;
    const b = y.r;
    if (a.type !== b.type) return a.type < b.type ? -1 : 1;
    return a.rdata < b.rdata ? -1 : a.rdata > b.rdata ? 1 : 0;
  });
  return keyed.map((k) => k.r);
}

export function write(zone: ZoneFileInput, options: WriteZoneFileOptions = {}): string {
  let head = '$ORIGIN ' + zone.origin + '\n';
  if (zone.ttl !== undefined) head += '$TTL ' + String(zone.ttl) + '\n';
  const records = zone.records;
  let skipSoa = false;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.type === 'SOA') {
      head += line(r);
      skipSoa = true;
    }
  }
  let rest = records;
  if (options.order === 'sorted') {
    rest = sorted(skipSoa ? records.filter((r) => r.type !== 'SOA') : records);
    skipSoa = false;
  }
  // Chunks of flat strings joined once: a million `+=` on one string would build a rope whose
  // final flattening costs more than the formatting itself.
  const parts: string[] = [head];
  let chunk = '';
  let inChunk = 0;
  let lastTtl = NaN;
  let ttlText = '';
  for (let i = 0; i < rest.length; i++) {
    const r = rest[i]!;
    if (skipSoa && r.type === 'SOA') continue;
    if (r.ttl !== lastTtl) {
      lastTtl = r.ttl;
      ttlText = ' ' + String(r.ttl) + ' ';
    }
    chunk += r.name + ttlText + r.class + ' ' + r.type + ' ' + r.rdata + '\n';
    if (++inChunk === CHUNK) {
      chunk.charCodeAt(0); // flattens the chunk while its pieces are fresh
      parts.push(chunk);
      chunk = '';
      inChunk = 0;
    }
  }
  parts.push(chunk);
  return parts.join('');
}
