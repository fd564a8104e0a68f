/**
 * The catalogue of error `type` codes: every {@link ApiError} carries one of these, so a
 * misspelt code fails the typecheck where it is written and where a caller compares it
 * (`if (e.type === 'duplicate_zone')`). Each concept has its own line; a concept that answers a
 * new code adds it to its line (or a new concept adds a line and names it in its service's union).
 * Which command answers which code is the table of docs/errors.md, generated from the services'
 * interfaces.
 * @module
 */

/**
 * Codes that commands of both services answer: the caller (credentials, policy), the body, path
 * ids and list parameters, and failures of the storage or of the service's own configuration.
 *
 * @category Errors
 */
export type CommonErrorType =
  | 'authentication_required'
  | 'missing_project_id'
  | 'forbidden'
  | 'invalid_object'
  | 'empty_request_body'
  | 'bad_request'
  | 'invalid_uuid'
  | 'invalid_limit'
  | 'invalid_marker'
  | 'marker_not_found'
  | 'invalid_sort_key'
  | 'invalid_sort_dir'
  | 'not_found'
  | 'storage_failure'
  | 'corrupt_value'
  | 'duplicate_id'
  | 'invalid_id_source'
  | 'unknown';

/**
 * Codes only the HTTP front (`zoneward/http`) answers: the request itself, before any command.
 *
 * @category Errors
 */
export type HttpErrorType = 'method_not_allowed' | 'unsupported_content_type' | 'request_too_large' | 'invalid_json' | 'malformed_json';

/** Zones and the rules every DNS concept applies to them (names, owners, TTLs, quotas). @category Errors */
export type ZoneErrorType =
  | 'zone_not_found'
  | 'duplicate_zone'
  | 'illegal_child'
  | 'illegal_parent'
  | 'invalid_zone_name'
  | 'invalid_ttl'
  | 'zone_has_sub_zone'
  | 'no_servers_configured'
  | 'over_quota';
/** Recordsets. @category Errors */
export type RecordsetErrorType = 'recordset_not_found' | 'duplicate_recordset' | 'invalid_recordset_name' | 'invalid_recordset_location';
/** Zone transfer requests and accepts. @category Errors */
export type TransferErrorType =
  | 'zone_transfer_request_not_found'
  | 'zone_transfer_accept_not_found'
  | 'duplicate_zone_transfer_request'
  | 'invalid_zone_transfer_request'
  | 'invalid_key'
  | 'invalid_operation';
/** Zone-file imports; `import_failed` is never answered, it carries a failed import's message to its `ERROR` status. @category Errors */
export type ImportErrorType = 'zone_import_not_found' | 'unsupported_content_type' | 'request_too_large' | 'import_failed';
/** Zone-file exports. @category Errors */
export type ExportErrorType = 'zone_export_not_found' | 'unsupported_accept';
/** Pools. @category Errors */
export type PoolErrorType = 'pool_not_found' | 'duplicate_pool' | 'invalid_operation' | 'last_server_delete_not_allowed';
/** TSIG keys. @category Errors */
export type TsigkeyErrorType = 'tsigkey_not_found' | 'duplicate_tsigkey';
/** TLDs. @category Errors */
export type TldErrorType = 'tld_not_found' | 'duplicate_tld';
/** Blacklisted zone-name patterns. @category Errors */
export type BlacklistErrorType = 'blacklist_not_found' | 'duplicate_blacklist';
/** Service statuses. @category Errors */
export type ServiceStatusErrorType = 'service_status_not_found';

/**
 * Every code the DNS service (`createDnsService`, and `zoneward/http` under `/v2`) answers.
 *
 * @example
 * ```ts
 * const created = await dns.zones.create(ctx, body);
 * if (created.isErr() && created.error.type === 'duplicate_zone') console.log('taken');
 * ```
 * @category Errors
 */
export type DnsErrorType =
  | CommonErrorType
  | HttpErrorType
  | ZoneErrorType
  | RecordsetErrorType
  | TransferErrorType
  | ImportErrorType
  | ExportErrorType
  | PoolErrorType
  | TsigkeyErrorType
  | TldErrorType
  | BlacklistErrorType
  | ServiceStatusErrorType;

/**
 * Every code the quota service (`createQuotaService`, and `zoneward/http` under `/v1`) answers.
 *
 * @category Errors
 */
export type QuotaErrorType = CommonErrorType | HttpErrorType | 'invalid_project_id' | 'quota_exceeded';

/**
 * The code of any {@link ApiError}.
 *
 * @category Errors
 */
export type ErrorType = DnsErrorType | QuotaErrorType;
