/**
 * Typed errors thrown by domain code: a kind, a machine-readable code and a message, no HTTP
 * status. One place (`shared/http/middleware/envelopes.ts`) maps each kind to its status and the
 * spec's envelopes; nothing else builds an error response.
 */
export interface FieldError {
  field: string;
  message: string;
}

/** What went wrong, in the caller's terms (envelopes.ts `STATUS_OF` gives each its HTTP status). */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'response_too_large'
  | 'unsupported_media_type'
  | 'validation'
  | 'too_many_requests'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    /** Machine-readable code, used by the reactions envelope (`error.code`). */
    readonly code: string,
    message: string,
    /** What the caller needs to retry or authenticate (`WWW-Authenticate`, `Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends DomainError {
  constructor(message: string) {
    super('bad_request', 'BAD_REQUEST', message);
  }
}

/** RFC 6750 section 3.1: why a bearer token was refused, for the `WWW-Authenticate` challenge. */
export interface BearerChallenge {
  error: 'invalid_request' | 'invalid_token';
  description: string;
}

/**
 * 401 with an RFC 6750 challenge: `WWW-Authenticate: Bearer` when no token was sent, with
 * `error="invalid_token"` (expired, tampered...) or `error="invalid_request"` (a malformed header)
 * and an `error_description` when one was refused, so a client can tell "refresh" from "sign in".
 */
export class UnauthorizedError extends DomainError {
  constructor(message = 'Missing or invalid bearer token', challenge?: BearerChallenge) {
    super('unauthorized', 'UNAUTHORIZED', message, {
      'www-authenticate': challenge
        ? `Bearer error="${challenge.error}", error_description="${challenge.description.replaceAll('"', "'")}"`
        : 'Bearer',
    });
  }
}

/**
 * 401 `reason: "step_up_required"`: the token is valid but its sign-in proved who the caller is
 * too long ago for a sensitive action (shared/http/middleware/step-up.ts). The challenge is RFC
 * 9470's (`error="insufficient_user_authentication"`, `max_age`): get a fresh token with
 * POST /auth/step-up and retry.
 */
/** What a step-up refusal tells the caller to do (the answer and the API document's example). */
export const STEP_UP_MESSAGE =
  'This action needs a recent sign-in: confirm your password (and, if the account has a second factor, its code) with POST /auth/step-up and retry';

export class StepUpRequiredError extends DomainError {
  readonly reason = 'step_up_required';
  constructor(maxAgeSeconds: number) {
    super('unauthorized', 'STEP_UP_REQUIRED', STEP_UP_MESSAGE, {
      'www-authenticate': `Bearer error="insufficient_user_authentication", error_description="A more recent authentication is required", max_age=${maxAgeSeconds}`,
    });
  }
}

/**
 * 403 `reason: "second_factor_required"`: the operator requires creators to use a second factor
 * and this token's sign-in did not pass one (shared/http/middleware/step-up.ts).
 */
export class SecondFactorRequiredError extends DomainError {
  readonly reason = 'second_factor_required';
  constructor() {
    super(
      'forbidden',
      'SECOND_FACTOR_REQUIRED',
      'Creators must use a second factor: enrol one (POST /me/mfa/totp, then confirm it), or if you have one, sign in with it or step up with its code (POST /auth/step-up)',
    );
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'Forbidden') {
    super('forbidden', 'FORBIDDEN', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super('not_found', 'NOT_FOUND', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', 'CONFLICT', message);
  }
}

/** 410: what the caller named is gone for good (an ended or expired watch session); `code` says what. */
export class GoneError extends DomainError {
  constructor(code: string, message: string) {
    super('gone', code, message);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super('payload_too_large', 'PAYLOAD_TOO_LARGE', `Request body exceeds ${limitBytes} bytes`);
  }
}

/**
 * The answer is over Lambda's response limit (shared/http/middleware/response-encoding.ts): a 500,
 * since the request was valid and HTTP lets any client ask without gzip (RFC 9110 section 12.5.3),
 * with a message that says whether asking for gzip makes it fit (docs/performance.md).
 */
export class ResponseTooLargeError extends DomainError {
  constructor(limitBytes: number, why: 'needs-gzip' | 'gzip-too-large' | 'too-large') {
    const mb = limitBytes / 1024 / 1024;
    super(
      'response_too_large',
      'RESPONSE_TOO_LARGE',
      why === 'needs-gzip'
        ? `The answer is over ${mb} MB uncompressed: ask again with Accept-Encoding: gzip`
        : why === 'gzip-too-large'
          ? `The answer is over ${mb} MB even gzip-compressed`
          : `The answer is over ${mb} MB, gzip-compressed or not`,
    );
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  constructor() {
    super(
      'unsupported_media_type',
      'UNSUPPORTED_MEDIA_TYPE',
      'Request body must be sent as application/json',
    );
  }
}

/** 422 with the spec's `errors: [{field, message}]` body. */
export class ValidationError extends DomainError {
  constructor(readonly errors: FieldError[]) {
    super('validation', 'VALIDATION_ERROR', 'Validation failed');
  }
}

/**
 * 429. `reason` tells a client which limit it hit: `rate_limit` (slow down and retry after the
 * header) or `concurrent_streams` (close another session first).
 */
export type TooManyRequestsKind = 'rate_limit' | 'concurrent_streams';

export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly reason: TooManyRequestsKind,
    headers: Record<string, string> = {},
  ) {
    super(
      'too_many_requests',
      reason === 'rate_limit' ? 'RATE_LIMITED' : 'CONCURRENT_STREAM_LIMIT',
      message,
      headers,
    );
  }
}

/** 503 with `Retry-After`: a dependency is throttling or failing; the client may retry. */
export class ServiceUnavailableError extends DomainError {
  constructor(message = 'Service temporarily unavailable, retry shortly', retryAfterSeconds = 1) {
    super('unavailable', 'UNAVAILABLE', message, { 'retry-after': String(retryAfterSeconds) });
  }
}
