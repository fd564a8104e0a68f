/** The master-file writer: `$ORIGIN`, `$TTL`, SOA first, then one line per record with absolute names. */
import type { WriteZoneFileOptions, ZoneFileInput, ZoneRecord } from './types.js';

function line(r: ZoneRecord): string {
  return r.name + ' ' + String(r.ttl) + ' ' + r.class + ' ' + r.type + ' ' + r.rdata + '\n';
}

function compare(a: ZoneRecord, b: ZoneRecord): number {
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  if (an !== bn) return an < bn ? -1 : 1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  return a.rdata < b.rdata ? -1 : a.rdata > b.rdata ? 1 : 0;
}

export function write(zone: ZoneFileInput, options: WriteZoneFileOptions = {}): string {
  let out = '$ORIGIN ' + zone.origin + '\n';
  if (zone.ttl !== undefined) out += '$TTL ' + String(zone.ttl) + '\n';
  const records = zone.records;
  let others: readonly ZoneRecord[] = records;
  let soaCount = 0;
  for (const r of records) {
    if (r.type === 'SOA') {
      out += line(r);
      soaCount++;
    }
  }
  if (soaCount > 0 || options.order === 'sorted') {
    const rest = soaCount > 0 ? records.filter((r) => r.type !== 'SOA') : records.slice();
    if (options.order === 'sorted') rest.sort(compare);
    others = rest;
  }
  for (const r of others) out += line(r);
  return out;
}
