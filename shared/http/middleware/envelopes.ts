import { logger } from '../../observability/index.ts';
import { mappedStack } from '../../observability/stack.ts';
import {
  DomainError,
  type ErrorKind,
  ServiceUnavailableError,
  SecondFactorRequiredError,
  StepUpRequiredError,
  TooManyRequestsError,
  ValidationError,
} from '../../errors/errors.ts';
import { type Reply, statusOf } from '../reply.ts';
import type { RouteRow } from '../../routing/route.ts';
import { withCors } from './cors-headers.ts';
import { withRequestId } from './request-context.ts';
import { type HttpMiddleware, type HttpResponse, stateOf } from './state.ts';

// The envelopes are the spec's (`status`/`code`/`message`, the reactions API's `success`/`error`
// with its `requestId`, the 429's `reason`, the 422's `errors`), so they are built here rather
// than by @middy/http-error-handler, which answers with the error's message as a plain-text body.

/** AWS SDK error names that mean "retry later", answered as 503 with Retry-After. */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  // An account quota of a service we call (IVS Chat rooms, IVS channels): nothing the caller did
  // wrong, and only an operator's quota increase clears it (docs/chat.md "Quotas"); its own
  // alarm is the 5xx rate.
  'ServiceQuotaExceededException',
  'TransactionConflictException',
  'TimeoutError',
  'RequestTimeout',
  'ECONNRESET',
  'ECONNREFUSED',
]);

const isTransient = (error: unknown): boolean => {
  const e = error as { name?: string; code?: string; $retryable?: unknown } | null;
  return Boolean(e && (TRANSIENT.has(e.name ?? '') || TRANSIENT.has(e.code ?? '') || e.$retryable));
};

/** The HTTP status of each kind of domain error (shared/errors/errors.ts). */
export const STATUS_OF: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  response_too_large: 500,
  unsupported_media_type: 415,
  validation: 422,
  too_many_requests: 429,
  unavailable: 503,
};

/** Turns anything thrown into a DomainError, never leaking internals; undefined means a 500. */
export const toHttpError = (error: unknown): DomainError | undefined => {
  if (error instanceof DomainError) return error;
  if (isTransient(error)) return new ServiceUnavailableError();
  return undefined;
};

const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const errorBody = (route: RouteRow | undefined, error: DomainError, requestId: string): unknown => {
  if (route?.envelope === 'reactions') {
    const details = error instanceof ValidationError ? { details: error.errors } : {};
    return { success: false, error: { code: error.code, message: error.message, ...details }, requestId };
  }
  if (error instanceof ValidationError) return { status: 'error', code: 422, errors: error.errors };
  // Two different 429s: `rate_limit` (wait for Retry-After) or `concurrent_streams` (end a session);
  // and a 401 that asks for a step-up rather than a refresh.
  const reason =
    error instanceof TooManyRequestsError ||
    error instanceof StepUpRequiredError ||
    error instanceof SecondFactorRequiredError
      ? { reason: error.reason }
      : {};
  return { status: 'error', code: STATUS_OF[error.kind], message: error.message, ...reason };
};

/** The route's error envelope for `error` (500 INTERNAL, logged, for anything unmapped). */
const errorEnvelope = (route: RouteRow | undefined, error: unknown, requestId: string): HttpResponse => {
  const known = toHttpError(error);
  if (known) return json(STATUS_OF[known.kind], errorBody(route, known, requestId), known.headers);
  logger.error('Unhandled error', {
    requestId,
    route: route ? `${route.method} ${route.path}` : undefined,
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: mappedStack(error.stack) }
        : String(error),
  });
  const body =
    route?.envelope === 'reactions'
      ? { success: false, error: { code: 'INTERNAL', message: 'Internal error' }, requestId }
      : { status: 'error', code: 500, message: { code: 'INTERNAL', message: 'Internal error' } };
  return json(500, body);
};

/**
 * A complete error response, CORS and `x-request-id` included, for a request answered outside
 * the chain (the local gateway's 404 and 413) or failed inside it.
 */
export const errorResponse = (route: RouteRow | undefined, error: unknown, requestId: string): HttpResponse =>
  withCors(withRequestId(errorEnvelope(route, error, requestId), requestId));

/** The route's success envelope for a handler's Reply (CORS and request id are added after). */
export const successResponse = (route: RouteRow | undefined, reply: Reply): HttpResponse => {
  const status = statusOf(reply);
  const headers = reply.headers ?? {};
  if (reply.kind === 'no-content') return { statusCode: status, headers };
  if (reply.kind === 'raw') return json(status, reply.data, headers);
  if (reply.kind === 'text') {
    return {
      statusCode: status,
      headers: { 'content-type': reply.contentType, ...headers },
      body: String(reply.data),
    };
  }
  if (route?.envelope === 'reactions') return json(status, { success: true, data: reply.data }, headers);
  const body: Record<string, unknown> = { status: 'success' };
  if (reply.message !== undefined) body.message = reply.message;
  if (reply.meta_data !== undefined) body.meta_data = reply.meta_data;
  body.data = reply.data;
  return json(status, body, headers);
};

/**
 * Maps whatever was thrown, by a middleware or the handler, to the route's error envelope and
 * notes its code for the metrics. Used last, so its `onError` runs first and the CORS, request id
 * and logging middlewares see the answer it makes.
 */
export const errorEnvelopes = (): HttpMiddleware => ({
  onError: async (request) => {
    const state = stateOf(request);
    state.errorCode = toHttpError(request.error)?.code ?? 'INTERNAL';
    request.response = errorEnvelope(state.route, request.error, state.requestId);
  },
});
