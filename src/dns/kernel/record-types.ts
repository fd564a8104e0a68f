/**
 * The record types the real service stores (its storage enum): an import with any other type
 * fails unless the service is configured with a wider list.
 *
 * @category Recordsets
 */
export const DEFAULT_IMPORT_RECORD_TYPES: readonly string[] = Object.freeze([
  'A',
  'AAAA',
  'CNAME',
  'MX',
  'SRV',
  'TXT',
  'SPF',
  'NS',
  'PTR',
  'SSHFP',
  'SOA',
  'NAPTR',
  'CAA',
  'CERT',
]);
