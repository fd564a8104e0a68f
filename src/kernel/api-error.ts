import type { DnsErrorType, ErrorType } from './error-types.js';

/**
 * One field-level problem inside a 400 answer.
 *
 * @category Errors
 */
export interface FieldError {
  /** Where the problem is, as a dotted path into the request body (`'ttl'`, `'records.0.name'`). */
  readonly path: string;
  /** What is wrong with it, as a sentence. */
  readonly message: string;
}

/**
 * Which service an error belongs to: it decides the shape of {@link ApiError.toJSON}.
 *
 * @category Errors
 */
export type ErrorDialect = 'dns' | 'quota';

/**
 * Options of the {@link ApiError} constructor.
 *
 * @category Errors
 */
export interface ApiErrorOptions {
  /** Field-level detail for 400 answers. */
  readonly errors?: readonly FieldError[];
  /**
   * Whether the real service sends a `message` key in its body; Designate leaves it out for
   * errors it raises bare (a policy refusal, a duplicate transfer request, a bad marker).
   * @defaultValue true
   */
  readonly showMessage?: boolean;
  /** The body shape: the DNS service's or the quota service's. @defaultValue 'dns' */
  readonly dialect?: ErrorDialect;
  /** The underlying failure, for logs; never serialised. */
  readonly cause?: unknown;
}

const QUOTA_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
};

/**
 * The DNS service's error body (Designate's shape).
 *
 * @category Errors
 */
export interface DnsErrorBody {
  /** The HTTP status. */
  readonly code: number;
  /** The stable code. */
  readonly type: DnsErrorType;
  /** A sentence; left out where the real service leaves it out. */
  readonly message?: string;
  /** Field-level detail of a 400: each `path` split into its keys. */
  readonly errors?: {
    /** One entry per problem. */
    readonly errors: readonly {
      /** Where: the keys of the path into the request body. */
      readonly path: readonly string[];
      /** What is wrong, as a sentence. */
      readonly message: string;
    }[];
  };
}

/**
 * The quota service's error body (Barbican's shape).
 *
 * @category Errors
 */
export interface QuotaErrorBody {
  /** The HTTP status. */
  readonly code: number;
  /** The status's reason phrase, e.g. `'Not Found'`. */
  readonly title: string;
  /** A sentence. */
  readonly description: string;
}

/**
 * The failure of a command: what an HTTP server would answer, as a value.
 *
 * Commands never throw or reject; every failure, a storage failure included, comes back as an
 * `ApiError` inside a `ResultAsync`. `status` is the HTTP status the service documents, `type` a
 * stable snake_case code (the real service's own where it has one) that tests can match on.
 *
 * @example
 * ```ts
 * const result = await dns.zones.get(ctx, 'not-a-uuid');
 * if (result.isErr()) console.log(result.error.status, result.error.type); // 400 'invalid_uuid'
 * ```
 * @category Errors
 */
export class ApiError extends Error {
  /** The HTTP status the service documents for this failure. */
  readonly status: number;
  /** A stable snake_case code, e.g. `'duplicate_zone'`, `'forbidden'`, `'invalid_object'`: see {@link ErrorType}. */
  readonly type: ErrorType;
  /** Field-level detail for 400 answers. */
  readonly errors?: readonly FieldError[];
  readonly #showMessage: boolean;
  readonly #dialect: ErrorDialect;

  /**
   * @param status - the HTTP status
   * @param type - the stable error code
   * @param message - a sentence a person can act on
   * @param options - field errors, body shape, cause
   */
  constructor(status: number, type: ErrorType, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
    if (options.errors !== undefined) this.errors = Object.freeze([...options.errors]);
    this.#showMessage = options.showMessage ?? true;
    this.#dialect = options.dialect ?? 'dns';
  }

  /**
   * The service's error body.
   *
   * DNS: `{ code, type, message?, errors? }` (Designate's shape; validation errors nest their list
   * as `errors.errors`). Quotas: `{ code, title, description }` (Barbican's shape).
   */
  toJSON(): DnsErrorBody | QuotaErrorBody {
    if (this.#dialect === 'quota') {
      return { code: this.status, title: QUOTA_TITLES[this.status] ?? 'Error', description: this.message };
    }
    // A quota-only code never comes with the DNS dialect: the services build their own errors.
    const type = this.type as DnsErrorType;
    return {
      code: this.status,
      type,
      ...(this.#showMessage ? { message: this.message } : {}),
      ...(this.errors === undefined ? {} : { errors: { errors: this.errors.map((e) => ({ path: e.path.split('.'), message: e.message })) } }),
    };
  }
}
