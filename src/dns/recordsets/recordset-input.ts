import { err, ok, type Result } from 'neverthrow';
import { ApiError, type FieldError } from '../../kernel/api-error.js';
import {
  walkBodyKeys,
  coerceString,
  intField,
  invalidValue,
  isCleanText,
  ownEntries,
  pyStr,
  pyText,
  pyTypeName,
  schemaErrors,
  type BodyKeys,
} from '../../kernel/validation.js';
import { API_RECORD_TYPES, checkRecord, isHostStyleName, isSrvOwnerName, isZoneStyleName } from './record-rules.js';
import type { RecordsetBody } from '../kernel/recordset-body.js';

/** What a recordset create or update body sets. @internal */
export interface RecordsetInput {
  name?: string | null;
  type?: string;
  /** Deduplicated, first spelling kept: the real service stores records as a set. */
  records?: readonly string[];
  ttl?: number | null;
  description?: string | null;
}

const MAX_TTL = 2147483647;
const MAX_DESCRIPTION = 160;
const MAX_NAME = 255;

/**
 * The keys the real service's recordset adapter knows (any other key is refused): `name` and
 * `type` are set once, then only to the same value; `records`, `description` and `ttl` may
 * change; every other one is read-only.
 */
const RECORDSET_KEYS: BodyKeys = {
  known: new Set([
    'id',
    'zone_id',
    'project_id',
    'name',
    'zone_name',
    'type',
    'records',
    'description',
    'ttl',
    'status',
    'action',
    'version',
    'created_at',
    'updated_at',
  ]),
  editable: new Set(['records', 'description', 'ttl']),
  immutable: new Set(['name', 'type']),
};
/** Read-only keys that are computed, not stored: equal values reach a setter that does not exist. */
const COMPUTED = new Set(['status', 'action']);

/**
 * The current value of a key as the adapter compares it: on create, immutable keys are unset and
 * read-only ones None, but for the computed status and action.
 */
function storedValue(key: string, current: RecordsetBody | undefined): unknown {
  if (current === undefined) return key === 'name' || key === 'type' ? undefined : key === 'status' ? 'ACTIVE' : key === 'action' ? 'NONE' : null;
  // Timestamps are datetimes there: no JSON value equals one.
  if (key === 'created_at') return DATETIME;
  if (key === 'updated_at') return current.updated_at === null ? null : DATETIME;
  return current[key as keyof RecordsetBody];
}
const DATETIME = Symbol('datetime');

/** The owner name's field rules (the real service's host-name field). */
function parseName(value: unknown): Result<string | null, ApiError> {
  if (value === null) return ok(null);
  const s = coerceString(value, 'name', MAX_NAME);
  if (s.isErr()) return err(s.error);
  const name = s.value;
  for (const label of name.split('.')) if (label.length > 63) return err(invalidValue('ValueError', `Host ${label} is too long`));
  if (!name.endsWith('.')) return err(invalidValue('ValueError', `Host name ${name} does not end with a dot`));
  if (!isHostStyleName(name)) return err(invalidValue('ValueError', `Host name ${name} is invalid`));
  return ok(name);
}

/** The records list: every item a string (scalars become their Python text), duplicates dropped. */
function parseRecords(value: unknown): Result<string[] | { notAList: unknown }, ApiError> {
  if (!Array.isArray(value)) return ok({ notAList: value });
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of value) {
    // The real service makes a set of the records first: lists and objects cannot be hashed.
    if (typeof item === 'object' && item !== null) return err(invalidValue('TypeError', `unhashable type: '${pyTypeName(item)}'`));
    const s = item === null ? 'None' : pyStr(item);
    if (s === undefined) return err(invalidValue('ValueError', `A string is required in field data, not a ${pyTypeName(item)}`));
    if (!isCleanText(s)) return err(invalidValue('ValueError', 'Field data must be UTF-8 text without NUL characters or lone surrogates'));
    if (!seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  }
  return ok(out);
}

/**
 * Parses a create body (`current` undefined) or an update body onto a recordset, then validates
 * it, as the real service does and in its order: keys in body order (unknown ones noted, a
 * read-only or immutable one that differs noted and ending the walk, a refused value refused at
 * once), the noted keys refused together; then the type, then the owner name's per-type rule,
 * then every record, refused together with their positions.
 * @internal
 */
export function parseRecordsetBody(body: unknown, current: RecordsetBody | undefined): Result<RecordsetInput, ApiError> {
  const entries = ownEntries(body);
  if (entries.isErr()) return err(entries.error);
  const fields = entries.value;
  const input: RecordsetInput = {};
  let notAList: { notAList: unknown } | undefined;
  const walked = walkBodyKeys(RECORDSET_KEYS, fields, (k) => storedValue(k, current), 'recordset', {
    same: (key) => (COMPUTED.has(key) ? invalidValue('AttributeError', `Designate object 'RecordSet' has noattribute '${key}'`) : undefined),
    set: (key, value) => {
      switch (key) {
        case 'name': {
          const n = parseName(value);
          if (n.isErr()) return err(n.error);
          input.name = n.value;
          break;
        }
        case 'type': {
          // A null type stays unset, and is then no valid record type.
          if (value === null) break;
          const t = coerceString(value, 'type', 255);
          if (t.isErr()) return err(t.error);
          input.type = t.value;
          break;
        }
        case 'records': {
          const r = parseRecords(value);
          if (r.isErr()) return err(r.error);
          if (Array.isArray(r.value)) input.records = r.value;
          else notAList = r.value;
          break;
        }
        case 'ttl': {
          if (value === null) input.ttl = null;
          else {
            const t = intField(value, 'ttl', 0, MAX_TTL);
            if (t.isErr()) return err(t.error);
            input.ttl = t.value;
          }
          break;
        }
        case 'description': {
          if (value === null) input.description = null;
          else {
            const d = coerceString(value, 'description', MAX_DESCRIPTION);
            if (d.isErr()) return err(d.error);
            if (!isCleanText(d.value)) {
              return err(invalidValue('ValueError', 'Field description must be UTF-8 text without NUL characters or lone surrogates'));
            }
            input.description = d.value;
          }
          break;
        }
      }
      return ok(undefined);
    },
  });
  if (walked.isErr()) return err(walked.error);

  const type = input.type ?? current?.type;
  if (type === undefined || !API_RECORD_TYPES.has(type)) {
    const shown = type === undefined ? 'None' : pyText(type);
    return err(schemaErrors([{ path: 'recordset.type', message: `'${shown}' is not a valid record type` }]));
  }
  const name = input.name === undefined ? current?.name : input.name;
  if (typeof name === 'string') {
    if ((type === 'SRV' && !isSrvOwnerName(name)) || (type === 'NS' && !isZoneStyleName(name))) {
      return err(new ApiError(400, 'invalid_object', 'name is invalid'));
    }
  }
  if (notAList !== undefined) {
    return err(schemaErrors([{ path: 'records', message: `'${pyText(notAList.notAList)}' is not a valid list of records` }]));
  }
  const problems: FieldError[] = [];
  for (const [i, data] of (input.records ?? []).entries()) {
    const verdict = checkRecord(type, data);
    if (verdict === 'ok') continue;
    if (verdict !== 'bad') return err(new ApiError(400, 'invalid_object', `Provided object is not valid. Got a ${verdict.crash}`));
    problems.push({ path: `records.${i}`, message: `'${data}' is not a '${type}' Record` });
  }
  if (problems.length > 0) return err(schemaErrors(problems));
  return ok(input);
}
