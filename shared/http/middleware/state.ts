import { randomUUID } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { clock } from '../../clock.ts';
import type { Principal } from '../../identity/principal.ts';
import type { RouteRow } from '../../routing/route.ts';

/** What the middlewares learn about one request and hand on to the next ones and the handler. */
export interface RequestState {
  /** UUID of this request, sent back as `x-request-id`. */
  requestId: string;
  /** The endpoint's contract (auth, rate limit, envelope); none for an answer made outside one. */
  route: RouteRow | undefined;
  /** The instant the request is handled at (injected clock). */
  now: Date;
  /** `performance.now()` when the request arrived, for the latency logged. */
  startedAt: number;
  /** The verified caller, when a valid token was sent. */
  principal?: Principal;
  /** `RateLimit` headers to add to a successful response, for rate-limited routes. */
  limitHeaders?: Record<string, string>;
  /** Validated query, path and body (schema outputs). */
  input?: { query: unknown; path: unknown; body: unknown };
  /** The DomainError code of a failed request (`INTERNAL` for an unmapped error), for the metrics. */
  errorCode?: string;
}

/**
 * The Lambda context as the chain passes it on: the request's state under `http`, the middy way
 * of handing middleware results to the handler (as @middy/ssm's `setToContext` does). Lambda
 * gives every invocation its own context object, and so does the local server.
 */
export type HttpContext = Context & { http?: RequestState };

/** An API Gateway HTTP API (payload 2.0) event. */
export type HttpEvent = APIGatewayProxyEventV2;
/** The answer a handler gives API Gateway. */
export type HttpResponse = APIGatewayProxyStructuredResultV2;
/** middy's request as every middleware of the chain sees it. */
export type HttpRequest = middy.Request<HttpEvent, HttpResponse, Error, HttpContext>;
/** One middleware of the chain: `before`, `after` and `onError` steps, any of them. */
export type HttpMiddleware = middy.MiddlewareObj<HttpEvent, HttpResponse, Error, HttpContext>;

/** A fresh state: a new request id, the endpoint's contract and the clock's now. */
export const newState = (route?: RouteRow): RequestState => ({
  requestId: randomUUID(),
  route,
  now: clock.now(),
  startedAt: performance.now(),
});

/**
 * The request's state. `requestContext()` sets it first thing; should anything fail before that,
 * a fresh one is made so an error can still be answered with a request id.
 */
export const stateOf = (request: HttpRequest): RequestState => {
  request.context.http ??= newState();
  return request.context.http;
};

/** `response` with `headers` added under the ones it already has (those win). */
export const withHeaders = (response: HttpResponse, headers: Record<string, string>): HttpResponse => ({
  ...response,
  headers: { ...headers, ...response.headers },
});
