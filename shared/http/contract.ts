import type * as z from 'zod/mini';
import { STEP_UP_MESSAGE, type TooManyRequestsKind } from '../errors/errors.ts';
import { isStudioRoute, type RouteRow, rateLimitsOf } from '../routing/route.ts';
import type { Schema } from '../schema/validation.ts';

/**
 * One endpoint's whole contract as one value, in the spirit of Hono's `createRoute`: the route
 * row (method, path, auth, table access, needs, rate limit, envelope), the request schemas and
 * every response it can give. The stack, the local server, the OpenAPI document, the README
 * table and the tests read contracts; a handler is `endpoint(contract, fn)` and what `fn`
 * returns is type-checked against the contract's success responses (shared/http/handler.ts).
 */
export type { Schema };

/** A success response: `data` (inside the route's envelope) and, for pages, `meta_data`. */
export interface SuccessResponse {
  /** What the response means, for the document. */
  description: string;
  /** Shape of `data` in the envelope (of the whole body for `envelope: 'none'`). */
  data?: Schema;
  /** Shape of `meta_data` (pagination and its echoes), when the endpoint sends one. */
  meta?: Schema;
  /** A text document instead of JSON, in one of these media types (the API reference page and its assets). */
  text?: readonly string[];
  /** Response headers worth documenting (`cache-control`, ...), name → description. */
  headers?: Readonly<Record<string, string>>;
}

/** An error this endpoint gives for a reason of its own (the shared ones are implied below). */
export interface ErrorResponse {
  /** When it happens, for the document. */
  description: string;
  /** The `message` the endpoint sends, as the document's example. */
  message: string;
  /** On 429 only: the `reason` values this endpoint sends. */
  reasons?: readonly TooManyRequestsKind[];
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 429;

export type Responses = {
  readonly 200?: SuccessResponse;
  readonly 201?: SuccessResponse;
  /** Accepted: work taken that finishes later or not visibly (a mail on its way, an export being built). */
  readonly 202?: SuccessResponse;
} & {
  readonly 204?: { description: string };
} & { readonly [S in ErrorStatus]?: ErrorResponse };

export interface RequestSchemas {
  query?: Schema;
  path?: Schema;
  body?: Schema;
}

export interface Contract extends RouteRow {
  /** Stable operation name for generated clients (`listCreators`). */
  operationId: string;
  /** What the endpoint does and for whom, a few sentences (the document's description). */
  description: string;
  request?: RequestSchemas;
  /**
   * Every response it can give, as a function: only the OpenAPI document and the tests call it,
   * so a Lambda's cold start builds none of the response schemas (each domain builds its own on
   * the first call, `responseSchemas` in shared/schema/schema-meta.ts; docs/performance.md).
   */
  responses: () => Responses;
}

/** Declares a contract, keeping its literal types (what `endpoint` type-checks replies against). */
export const contract = <const C extends Contract>(value: C): C => value;

/** A response status with what the document says about it. */
export interface StatusEntry {
  status: number;
  description: string;
  /** `message` example for error statuses. */
  message?: string;
  /**
   * On 429: the `reason` values the endpoint's own code sends. Empty: the endpoint has no limit of
   * its own, and the only 429 is API Gateway's throttling (`GATEWAY_THROTTLED`).
   */
  reasons?: readonly TooManyRequestsKind[];
}

/**
 * API Gateway throttles the whole stage (and some routes) before any Lambda runs: over the rate it
 * answers 429 with a body of its own and no Retry-After. Every endpoint can get it on AWS.
 */
export const GATEWAY_THROTTLED = {
  message: 'Too Many Requests',
  description:
    'API Gateway throttled the request (over the API-wide or per-route request rate, before the endpoint ran); its body is `{"message": "Too Many Requests"}`, with no Retry-After: retry with exponential backoff',
} as const;

/**
 * Every error status the endpoint can answer, declared or implied by its contract: 400 for bad
 * query or path parameters and malformed JSON; 401 for a bearer the route verifies; 413 for
 * any body over the limit; 415 and 422 for a body; 429 `rate_limit` for a budget, and API Gateway's own 429 for any endpoint
 * (`GATEWAY_THROTTLED`); 500 and 503 for any endpoint. The OpenAPI document and the contract
 * tests both read this one list.
 */
export const errorStatusesOf = (c: Contract): StatusEntry[] => {
  const out = new Map<number, StatusEntry>();
  const put = (entry: StatusEntry) => out.set(entry.status, { ...entry, ...out.get(entry.status) });
  for (const [status, spec] of Object.entries(c.responses())) {
    const code = Number(status);
    if (code >= 400) put({ status: code, ...(spec as ErrorResponse) });
  }
  const { request = {} } = c;
  if (request.query || request.path || request.body) {
    put({
      status: 400,
      description: request.body
        ? 'A query or path parameter is invalid, or the body is not valid JSON'
        : 'A query or path parameter is invalid',
      message: request.body
        ? 'Malformed JSON body'
        : 'Invalid query parameter limit: limit must be a whole number between 1 and 100',
    });
  }
  if (c.stepUp) {
    put({
      status: 401,
      description:
        'No bearer token, a malformed Authorization header, or a token that is invalid or expired; or, with `reason: "step_up_required"`, a valid token whose sign-in is over 10 minutes old: get a fresh one with POST /auth/step-up and retry',
      message: STEP_UP_MESSAGE,
    });
  } else if (c.auth !== 'none') {
    put({
      status: 401,
      description:
        c.auth === 'required'
          ? 'No bearer token, a malformed Authorization header, or a token that is invalid or expired'
          : 'A bearer token was sent and is invalid or expired (send none to call anonymously)',
      message: 'Missing or invalid bearer token',
    });
  }
  if (isStudioRoute(c)) {
    const own = out.get(403);
    out.set(403, {
      status: 403,
      description: `${own ? `${own.description}; or, with` : 'With'} \`reason: "second_factor_required"\`, when the operator requires creators to use a second factor and this sign-in did not pass one (enrol: POST /me/mfa/totp; then sign in with it or POST /auth/step-up with its code)`,
      message:
        own?.message ??
        'Creators must use a second factor: enrol one (POST /me/mfa/totp, then confirm it), or if you have one, sign in with it or step up with its code (POST /auth/step-up)',
    });
  }
  // The body limit guards every route, those that take no body included (their body is ignored).
  put({
    status: 413,
    description: request.body
      ? 'The body is over 256 KiB'
      : 'A body was sent and is over 256 KiB (this operation reads none)',
    message: 'Request body exceeds 262144 bytes',
  });
  if (request.body) {
    put({
      status: 415,
      description: 'The body is not `application/json`',
      message: 'Request body must be sent as application/json',
    });
    put({ status: 422, description: 'The body failed validation: one entry per field', message: '' });
  }
  const limits = rateLimitsOf(c);
  if (limits.length > 0) {
    const declared = out.get(429);
    put({
      status: 429,
      description: `Over the rate limit (${limits.map((l) => `${l.limit} per ${l.windowSeconds} s per ${l.by}`).join('; ')}); retry after Retry-After`,
      message: 'Too many requests, retry later',
      reasons: [...new Set(['rate_limit' as const, ...(declared?.reasons ?? [])])],
    });
  }
  const own429 = out.get(429);
  if (own429) {
    own429.description = `${own429.description}. ${GATEWAY_THROTTLED.description.replace(/^API/, 'Or API')}`;
  } else {
    put({
      status: 429,
      description: GATEWAY_THROTTLED.description,
      message: GATEWAY_THROTTLED.message,
      reasons: [],
    });
  }
  put({
    status: 500,
    description:
      "An internal error (nothing internal is disclosed); or an answer over 6 MiB as sent (AWS Lambda's limit), whose message says so and whether asking with `Accept-Encoding: gzip` makes it fit",
    message: 'Internal error',
  });
  put({
    status: 503,
    description: 'A dependency is throttling or unavailable; retry after Retry-After',
    message: 'Service temporarily unavailable, retry shortly',
  });
  return [...out.values()].sort((a, b) => a.status - b.status);
};

// ---- Types a handler's reply is checked against ----------------------------------------------

type Out<S> = S extends Schema ? z.output<S> : undefined;
type DataOf<R> = R extends { data: infer D } ? Out<D> : undefined;
type MetaOf<R> = R extends { meta: infer M } ? Out<M> : undefined;

export interface OkReply<D, M = undefined> {
  readonly kind: 'ok';
  readonly data: D;
  readonly meta_data?: M;
  readonly message?: string;
  readonly headers?: Record<string, string>;
}
export interface CreatedReply<D, M = undefined> {
  readonly kind: 'created';
  readonly data: D;
  readonly meta_data?: M;
  readonly message?: string;
  readonly headers?: Record<string, string>;
}
export interface AcceptedReply<D, M = undefined> {
  readonly kind: 'accepted';
  readonly data: D;
  readonly meta_data?: M;
  readonly message?: string;
  readonly headers?: Record<string, string>;
}
export interface RawReply<D> {
  readonly kind: 'raw';
  readonly data: D;
  readonly headers?: Record<string, string>;
}
export interface TextReply {
  readonly kind: 'text';
  readonly data: string;
  /** The `content-type` header: one of the contract's `text` media types, with its charset. */
  readonly contentType: string;
  readonly headers?: Record<string, string>;
}
export interface NoContentReply {
  readonly kind: 'no-content';
  readonly headers?: Record<string, string>;
}

type ReplyFor200<C extends Contract, R> = C['envelope'] extends 'none'
  ? R extends { text: readonly string[] }
    ? TextReply
    : RawReply<DataOf<R>>
  : OkReply<DataOf<R>, MetaOf<R>>;

/** The replies a handler of contract `C` may return: one per success status it declares. */
export type ReplyOf<C extends Contract> =
  | (ReturnType<C['responses']> extends { 200: infer R } ? ReplyFor200<C, R> : never)
  | (ReturnType<C['responses']> extends { 201: infer R } ? CreatedReply<DataOf<R>, MetaOf<R>> : never)
  | (ReturnType<C['responses']> extends { 202: infer R } ? AcceptedReply<DataOf<R>, MetaOf<R>> : never)
  | (ReturnType<C['responses']> extends { 204: unknown } ? NoContentReply : never);

/** The handler's validated input, typed from the contract's request schemas. */
export type InputOf<C extends Contract, K extends keyof RequestSchemas> = C['request'] extends {
  [P in K]: infer S;
}
  ? Out<S>
  : undefined;
