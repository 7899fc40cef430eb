import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type * as z from 'zod/mini';
import { routesByKey } from '../../functions/routes.ts';
import { clock } from '../clock.ts';
import { logger, recordRequest } from '../observability/index.ts';
import { assertSettings } from '../platform/access.ts';
import { bearerToken, type Principal } from './auth.ts';
import { CORS_HEADERS } from './cors.ts';
import {
  BadRequestError,
  HttpError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors.ts';
import { type Reply, statusOf } from './reply.ts';
import type { RouteRow } from './route.ts';
import { parseBody, parseParams } from './validation.ts';

/** Largest request body accepted (bytes); larger is a 413. */
export const MAX_BODY_BYTES = 256 * 1024;

/** What a handler function receives: validated input plus request facts. */
export interface Request<Q, P, B> {
  query: Q;
  path: P;
  body: B;
  /** The verified caller, when a valid token was sent. */
  principal: Principal | undefined;
  /** The verified caller; throws 401 when there is none. */
  caller(): Principal;
  /** UUID of this request, also sent back as `x-request-id`. */
  requestId: string;
  /** The instant the request is handled at (injected clock). */
  now: Date;
  /** Lower-cased request headers. */
  headers: Record<string, string | undefined>;
}

/** Schemas of one endpoint: the single source of its validation and its OpenAPI entry. */
export interface EndpointSchemas<Q extends z.ZodMiniType, P extends z.ZodMiniType, B extends z.ZodMiniType> {
  query?: Q;
  path?: P;
  body?: B;
  /** Shape of `data` in the success envelope (documentation and contract tests). */
  response?: z.ZodMiniType;
}

export type LambdaHandler = ((
  event: APIGatewayProxyEventV2,
  context?: unknown,
) => Promise<APIGatewayProxyStructuredResultV2>) & {
  schemas: EndpointSchemas<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>;
};

type Infer<S> = S extends z.ZodMiniType ? z.infer<S> : undefined;

/** AWS SDK error names that mean "retry later", answered as 503 with Retry-After. */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
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

/** Turns anything thrown into an HttpError, never leaking internals. */
export const toHttpError = (error: unknown): HttpError | undefined => {
  if (error instanceof HttpError) return error;
  const middyStatus = (error as { statusCode?: number; expose?: boolean } | null)?.statusCode;
  if (middyStatus === 415) {
    // @middy/http-json-body-parser throws 415 for both a wrong content type and malformed JSON.
    const message = (error as Error).message;
    return message.startsWith('Unsupported')
      ? new UnsupportedMediaTypeError()
      : new BadRequestError('Malformed JSON body');
  }
  if (isTransient(error)) return new ServiceUnavailableError();
  return undefined;
};

const json = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string>,
): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { 'content-type': 'application/json', ...CORS_HEADERS, ...headers },
  body: JSON.stringify(body),
});

const errorBody = (route: RouteRow | undefined, error: HttpError, requestId: string): unknown => {
  if (route?.envelope === 'reactions') {
    const details = error instanceof ValidationError ? { details: error.errors } : {};
    return { success: false, error: { code: error.code, message: error.message, ...details }, requestId };
  }
  if (error instanceof ValidationError) return { status: 'error', code: 422, errors: error.errors };
  // Two different 429s: `rate_limit` (wait for Retry-After) or `concurrent_streams` (end a session).
  const reason = error instanceof TooManyRequestsError ? { reason: error.kind } : {};
  return { status: 'error', code: error.status, message: error.message, ...reason };
};

/** The error response for a request that never reached a handler or failed inside one. */
export const errorResponse = (
  route: RouteRow | undefined,
  error: unknown,
  requestId: string,
): APIGatewayProxyStructuredResultV2 => {
  const known = toHttpError(error);
  const headers = { 'x-request-id': requestId };
  if (known) return json(known.status, errorBody(route, known, requestId), { ...headers, ...known.headers });
  logger.error('Unhandled error', {
    requestId,
    route: route ? `${route.method} ${route.path}` : undefined,
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error),
  });
  const body =
    route?.envelope === 'reactions'
      ? { success: false, error: { code: 'INTERNAL', message: 'Internal error' }, requestId }
      : { status: 'error', code: 500, message: { code: 'INTERNAL', message: 'Internal error' } };
  return json(500, body, headers);
};

const successResponse = (
  route: RouteRow | undefined,
  reply: Reply,
  requestId: string,
): APIGatewayProxyStructuredResultV2 => {
  const headers = { 'x-request-id': requestId, ...reply.headers };
  const status = statusOf(reply);
  if (reply.kind === 'no-content') return { statusCode: status, headers: { ...CORS_HEADERS, ...headers } };
  if (reply.kind === 'raw') return json(status, reply.data, headers);
  if (reply.kind === 'html') {
    return {
      statusCode: status,
      headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
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

const jsonBodyParser = httpJsonBodyParser();

let verifier: ((token: string) => Promise<Principal>) | undefined;
/** Lazily loads the access-token verifier so routes that never see a token never pay for it. */
const verifyAccessToken = async (token: string): Promise<Principal> => {
  verifier ??= (await import('../identity/token-verifier.ts')).verifyAccessToken;
  return verifier(token);
};

interface State {
  requestId: string;
  route: RouteRow | undefined;
  now: Date;
  principal?: Principal;
  /** `RateLimit` headers to add to the response, for rate-limited routes. */
  limitHeaders?: Record<string, string>;
  /** The HttpError code of a failed request (`INTERNAL` for an unmapped error), for the metrics. */
  errorCode?: string;
}

/** Verifies the bearer token per the route's auth mode (none / optional / required). */
const authenticate = async (route: RouteRow | undefined, authorization: string | undefined) => {
  const mode = route?.auth ?? 'none';
  if (mode === 'none') return undefined;
  if (authorization === undefined) {
    if (mode === 'required') throw new UnauthorizedError();
    return undefined;
  }
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError('Authorization header must be "Bearer <token>"');
  return verifyAccessToken(token);
};

/** Applies the route's request budget, if it has one (loaded lazily: most routes have none). */
const rateLimit = async (event: APIGatewayProxyEventV2, state: State) => {
  const rule = state.route?.rateLimit;
  if (!rule) return undefined;
  const { enforceRateLimit } = await import('./rate-limit.ts');
  const client =
    rule.by === 'account' && state.principal
      ? `acct:${state.principal.accountId}`
      : `ip:${event.requestContext.http.sourceIp}`;
  return enforceRateLimit(event.routeKey, client, rule, state.now);
};

/**
 * Builds a Lambda handler for one endpoint. The chain, in order: request id and route lookup,
 * body size limit (413), authentication per the route row (401), rate limit (429), JSON parsing
 * (400/415), zod validation of path and query (400) and body (422), then the handler function,
 * whose Reply becomes the route's envelope; anything thrown is mapped by `errorResponse`.
 */
export const httpHandler = <
  Q extends z.ZodMiniType = z.ZodMiniType,
  P extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType = z.ZodMiniType,
>(
  schemas: EndpointSchemas<Q, P, B>,
  fn: (request: Request<Infer<Q>, Infer<P>, Infer<B>>) => Promise<Reply> | Reply,
): LambdaHandler => {
  const states = new WeakMap<object, State>();
  // At init, as Lambda runs it (ROUTE_KEY set): every setting the route's row implies must be there.
  const self = process.env.ROUTE_KEY ? routesByKey.get(process.env.ROUTE_KEY) : undefined;
  if (self) assertSettings(self, process.env);
  const core = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .before(async (request) => {
      const event = request.event;
      const state: State = {
        requestId: randomUUID(),
        route: routesByKey.get(event.routeKey),
        now: clock.now(),
      };
      states.set(event, state);
      const body = event.body;
      if (body !== undefined && body !== null) {
        const bytes = event.isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
        if (bytes > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
      }
      event.headers = Object.fromEntries(
        Object.entries(event.headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
      );
      state.principal = await authenticate(state.route, event.headers.authorization);
      state.limitHeaders = await rateLimit(event, state);
    })
    .before(async (request) => {
      // Parse JSON only for endpoints that take a body, and only when one was sent.
      const body = request.event.body;
      if (!schemas.body || body === undefined || body === null || body === '') return;
      await jsonBodyParser.before?.(request as never);
    })
    .handler(async (event) => {
      const state = states.get(event)!;
      const query = schemas.query
        ? parseParams(schemas.query, event.queryStringParameters ?? {}, 'query')
        : undefined;
      const path = schemas.path ? parseParams(schemas.path, event.pathParameters ?? {}, 'path') : undefined;
      const body = schemas.body ? parseBody(schemas.body, event.body) : undefined;
      const principal = state.principal;
      const reply = await fn({
        query: query as Infer<Q>,
        path: path as Infer<P>,
        body: body as Infer<B>,
        principal,
        caller: () => {
          if (!principal) throw new UnauthorizedError();
          return principal;
        },
        requestId: state.requestId,
        now: state.now,
        headers: event.headers,
      });
      const headers = { ...state.limitHeaders, ...reply.headers };
      return successResponse(state.route, { ...reply, headers }, state.requestId);
    })
    .onError(async (request) => {
      const state = states.get(request.event) ?? { requestId: randomUUID(), route: undefined };
      const known = states.get(request.event);
      if (known) known.errorCode = toHttpError(request.error)?.code ?? 'INTERNAL';
      request.response = errorResponse(state.route, request.error, state.requestId);
    });
  const handler = (async (event: APIGatewayProxyEventV2, context?: unknown) => {
    const started = performance.now();
    const response = await core(event, (context ?? {}) as never);
    const state = states.get(event);
    recordRequest({
      requestId: state?.requestId ?? 'unknown',
      route: event.routeKey,
      status: response.statusCode ?? 200,
      latencyMs: performance.now() - started,
      accountId: state?.principal?.accountId,
      errorCode: state?.errorCode,
    });
    return response;
  }) as LambdaHandler;
  handler.schemas = schemas as EndpointSchemas<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>;
  return handler;
};
