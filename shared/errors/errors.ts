/**
 * Typed errors thrown by domain code. One place (`shared/http/middleware/envelopes.ts`) maps them
 * to HTTP statuses and the spec's envelopes; nothing else builds an error response.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Machine-readable code, used by the reactions envelope (`error.code`). */
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, 'BAD_REQUEST', message);
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
export class UnauthorizedError extends HttpError {
  constructor(message = 'Missing or invalid bearer token', challenge?: BearerChallenge) {
    super(401, 'UNAUTHORIZED', message, {
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

export class StepUpRequiredError extends HttpError {
  readonly reason = 'step_up_required';
  constructor(maxAgeSeconds: number) {
    super(401, 'STEP_UP_REQUIRED', STEP_UP_MESSAGE, {
      'www-authenticate': `Bearer error="insufficient_user_authentication", error_description="A more recent authentication is required", max_age=${maxAgeSeconds}`,
    });
  }
}

/**
 * 403 `reason: "second_factor_required"`: the operator requires creators to use a second factor
 * and this token's sign-in did not pass one (shared/http/middleware/step-up.ts).
 */
export class SecondFactorRequiredError extends HttpError {
  readonly reason = 'second_factor_required';
  constructor() {
    super(
      403,
      'SECOND_FACTOR_REQUIRED',
      'Creators must use a second factor: enrol one (POST /me/mfa/totp, then confirm it), or if you have one, sign in with it or step up with its code (POST /auth/step-up)',
    );
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'Forbidden') {
    super(403, 'FORBIDDEN', message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, 'NOT_FOUND', message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, 'CONFLICT', message);
  }
}

/** 410: what the caller named is gone for good (an ended or expired watch session); `code` says what. */
export class GoneError extends HttpError {
  constructor(code: string, message: string) {
    super(410, code, message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${limitBytes} bytes`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor() {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be sent as application/json');
  }
}

/** 422 with the spec's `errors: [{field, message}]` body. */
export class ValidationError extends HttpError {
  constructor(readonly errors: FieldError[]) {
    super(422, 'VALIDATION_ERROR', 'Validation failed');
  }
}

/**
 * 429. `kind` tells a client which limit it hit: `rate_limit` (slow down and retry after the
 * header) or `concurrent_streams` (close another session first).
 */
export type TooManyRequestsKind = 'rate_limit' | 'concurrent_streams';

export class TooManyRequestsError extends HttpError {
  constructor(
    message: string,
    readonly kind: TooManyRequestsKind,
    headers: Record<string, string> = {},
  ) {
    super(429, kind === 'rate_limit' ? 'RATE_LIMITED' : 'CONCURRENT_STREAM_LIMIT', message, headers);
  }
}

/** 503 with `Retry-After`: a dependency is throttling or failing; the client may retry. */
export class ServiceUnavailableError extends HttpError {
  constructor(message = 'Service temporarily unavailable, retry shortly', retryAfterSeconds = 1) {
    super(503, 'UNAVAILABLE', message, { 'retry-after': String(retryAfterSeconds) });
  }
}
