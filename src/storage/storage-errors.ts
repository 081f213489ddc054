// Every failure of a media store is a StorageError: what kind of failure, whether trying again
// can help, and a message an operator can act on. The two stores turn what their backend throws
// (the AWS SDK's service exceptions and Node's network errors, or Node's file-system errors)
// into one of these in one place each: fromS3Error here, fromFsError here.

export type StorageErrorKind =
  /** The store could not be reached, or answered 5xx, or the exchange timed out. Retryable. */
  | 'unavailable'
  /** The store asked us to slow down (503 SlowDown, 429). Retryable, after a longer pause. */
  | 'throttled'
  /** The access key or secret was refused, expired, or lacks the permission (401, 403). */
  | 'credentials'
  /** The bucket does not exist (or the media folder cannot be created). */
  | 'no_bucket'
  /** The object does not exist (where a missing object is an error, not an answer). */
  | 'not_found'
  /** A byte range outside the object (416). */
  | 'invalid_range'
  /** What was stored is not what was sent: size or checksum differ. */
  | 'mismatch'
  /** The caller aborted the operation. */
  | 'aborted'
  /** Any other refusal: a bad request the store will refuse again. */
  | 'rejected';

const RETRYABLE: ReadonlySet<StorageErrorKind> = new Set(['unavailable', 'throttled']);

export interface StorageErrorDetails {
  kind: StorageErrorKind;
  /** What was being done: put, get, head, delete, delete-prefix, list, presign, check. */
  operation: string;
  /** The object's key (below S3_PREFIX) or the prefix, when the operation names one. */
  key?: string;
  /** The HTTP status the store answered, when it answered. */
  status?: number;
  /** The store's error code (S3's `Code`, such as SlowDown) or Node's (ECONNREFUSED, ENOSPC). */
  code?: string;
  cause?: unknown;
}

export class StorageError extends Error {
  readonly kind: StorageErrorKind;
  /** Trying the same operation again later may succeed: network, 5xx, throttling. */
  readonly retryable: boolean;
  readonly operation: string;
  readonly key: string | undefined;
  readonly status: number | undefined;
  readonly code: string | undefined;

  constructor(message: string, details: StorageErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'StorageError';
    this.kind = details.kind;
    this.retryable = RETRYABLE.has(details.kind);
    this.operation = details.operation;
    this.key = details.key;
    this.status = details.status;
    this.code = details.code;
  }
}

export function isRetryable(error: unknown): boolean {
  return error instanceof StorageError && error.retryable;
}

/** Network errors of Node and the SDK's HTTP handler that mean "no answer, try again". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

const THROTTLING_CODES = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequests',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ProvisionedThroughputExceededException',
  'BandwidthLimitExceeded',
]);

const CREDENTIAL_CODES = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'AllAccessDisabled',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'AccountProblem',
  'InvalidSecurity',
  'RequestTimeTooSkewed',
  'CredentialsProviderError',
]);

/** S3's own names for a timed-out exchange, answered with 400: trying again helps. */
const TIMEOUT_CODES = new Set(['RequestTimeout', 'RequestTimeoutException', 'TimeoutError']);

interface SdkLikeError {
  name?: unknown;
  code?: unknown;
  Code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  $response?: { statusCode?: unknown };
  cause?: unknown;
}

function field(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Node's error code, looked for on the error and the errors it wraps (the SDK nests them). */
function nodeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = field((current as SdkLikeError).code);
    if (code !== undefined) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) current = errors[0];
    else current = (current as SdkLikeError).cause;
  }
  return undefined;
}

export interface StoreWhere {
  /** `S3 bucket "media" at https://…` or `media folder /srv/data/media`, for the message. */
  store: string;
  operation: string;
  key?: string;
}

/**
 * An error the AWS SDK threw (a service exception with an HTTP status, or a network error
 * without one) as a StorageError. Errors that are already StorageErrors pass through.
 */
export function fromS3Error(error: unknown, where: StoreWhere): StorageError {
  if (error instanceof StorageError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkLikeError;
  const rawStatus = e.$metadata?.httpStatusCode ?? e.$response?.statusCode;
  const status = typeof rawStatus === 'number' ? rawStatus : undefined;
  const name = field(e.Code) ?? field(e.name);
  const netCode = nodeCode(error);
  const text = field(e.message) ?? String(error);
  const subject = `${where.store}: ${where.operation}${where.key === undefined ? '' : ` "${where.key}"`}`;
  const details = (kind: StorageErrorKind, code = name ?? netCode): StorageErrorDetails => ({
    kind,
    operation: where.operation,
    ...(where.key === undefined ? {} : { key: where.key }),
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    cause: error,
  });
  const said = `${status ?? 'no answer'}${name === undefined || name === 'Error' ? '' : ` ${name}`}`;

  if (name === 'AbortError' || (error instanceof Error && error.name === 'AbortError')) {
    return new StorageError(`${subject} was aborted`, details('aborted'));
  }
  if (status === undefined) {
    if (name === 'CredentialsProviderError') {
      return new StorageError(
        `${subject} failed: no credentials (${text}); set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`,
        details('credentials'),
      );
    }
    if (
      (netCode !== undefined && NETWORK_CODES.has(netCode)) ||
      (name !== undefined && TIMEOUT_CODES.has(name))
    ) {
      return new StorageError(
        `${subject} failed: the store could not be reached (${netCode ?? name ?? 'timeout'}: ${text})`,
        details('unavailable', netCode ?? name),
      );
    }
    // An error with no answer and no known network code: a dropped connection the SDK
    // described in its own words. Not knowing, trying again is the safe side.
    return new StorageError(`${subject} failed without an answer from the store: ${text}`, {
      ...details('unavailable'),
    });
  }
  if (status === 429 || (name !== undefined && THROTTLING_CODES.has(name))) {
    return new StorageError(`${subject} was throttled by the store (${said}); slow down and retry`, {
      ...details('throttled'),
    });
  }
  if (status >= 500 || status === 408 || (name !== undefined && TIMEOUT_CODES.has(name))) {
    return new StorageError(`${subject} failed: the store answered ${said}: ${text}`, details('unavailable'));
  }
  if (status === 401 || status === 403 || (name !== undefined && CREDENTIAL_CODES.has(name))) {
    const hint =
      name === 'RequestTimeTooSkewed'
        ? "this machine's clock is too far from the store's; set the time (NTP)"
        : name === 'AccessDenied' || name === 'AllAccessDisabled'
          ? 'the access key may not do this on this bucket; check its policy'
          : 'check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY';
    return new StorageError(`${subject} was refused: the credentials were not accepted (${said}); ${hint}`, {
      ...details('credentials'),
    });
  }
  if (name === 'NoSuchBucket') {
    return new StorageError(`${subject} failed: the bucket does not exist (${said}); check S3_BUCKET`, {
      ...details('no_bucket'),
    });
  }
  if (status === 404) {
    return new StorageError(`${subject} failed: no such object (${said})`, details('not_found'));
  }
  if (status === 416) {
    return new StorageError(`${subject} failed: the range is outside the object (${said})`, {
      ...details('invalid_range'),
    });
  }
  return new StorageError(`${subject} was refused by the store (${said}): ${text}`, details('rejected'));
}

/** File-system errors that may pass: a full disk, too many open files, a busy device. */
const TRANSIENT_FS_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EMFILE',
  'ENFILE',
  'EIO',
  'EBUSY',
  'EAGAIN',
  'EINTR',
]);

/** An error of node:fs under the local store as a StorageError. */
export function fromFsError(error: unknown, where: StoreWhere): StorageError {
  if (error instanceof StorageError) return error;
  const code = nodeCode(error);
  const text = error instanceof Error ? error.message : String(error);
  const subject = `${where.store}: ${where.operation}${where.key === undefined ? '' : ` "${where.key}"`}`;
  const details = (kind: StorageErrorKind): StorageErrorDetails => ({
    kind,
    operation: where.operation,
    ...(where.key === undefined ? {} : { key: where.key }),
    ...(code === undefined ? {} : { code }),
    cause: error,
  });
  if (error instanceof Error && error.name === 'AbortError') {
    return new StorageError(`${subject} was aborted`, details('aborted'));
  }
  if (code !== undefined && TRANSIENT_FS_CODES.has(code)) {
    return new StorageError(`${subject} failed for now: ${text}`, details('unavailable'));
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new StorageError(
      `${subject} was refused by the file system (${code}): ${text}`,
      details('rejected'),
    );
  }
  if (code === 'ENOENT') {
    return new StorageError(`${subject} failed: no such file (${text})`, details('not_found'));
  }
  return new StorageError(`${subject} failed: ${text}`, details('rejected'));
}
