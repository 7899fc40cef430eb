import type { FunctionRow } from './function-row.ts';

/** A route's request budget: `limit` requests per `windowSeconds` per client. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
  /** Who the budget belongs to: the caller's IP address, or the signed-in account (IP when anonymous). */
  by: 'ip' | 'account';
}

/** One IAM statement: every action on every resource (ARNs, no wildcards). */
export interface Statement {
  actions: readonly string[];
  resources: readonly string[];
}

/**
 * What makes a function an HTTP endpoint: its route (API Gateway) and how the middleware chain
 * answers on it. The function itself (handler, access, memory, timeout) is its `FunctionRow`
 * (shared/routing/function-row.ts).
 */
export interface HttpRoute {
  /** `ANY` only with the `$default` path: the catch-all for requests no other route matches. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
  /** API Gateway HTTP API path syntax, e.g. `/creators/{id}`, or `$default`. */
  path: string;
  /** `required`: 401 without a valid bearer token; `optional`: verified when sent. */
  auth: 'none' | 'optional' | 'required';
  /**
   * A sensitive action (stream key, payouts, plan price, email or password): the token's
   * `auth_time` must be within the last 10 minutes, or 401 `reason: "step_up_required"`
   * (shared/http/middleware/step-up.ts). Only with `auth: 'required'`.
   */
  stepUp?: true;
  /** Response envelope family (spec 2.1): reactions routes use their own; `none` for standard documents (JWKS, OpenAPI, HTML). */
  envelope?: 'standard' | 'reactions' | 'none';
  /**
   * Per-client request budget enforced by the middleware (429 `rate_limit` past it); needs table
   * write. Several rules (e.g. per account and per IP) are each enforced; with an `ip` rule beside
   * it, an `account` rule counts only signed-in callers.
   */
  rateLimit?: RateLimit | readonly RateLimit[];
  /**
   * Log the request line of one successful request in `every` (per container: the first, then
   * every `every`th), with the reason; failures are always logged, metrics always recorded. For
   * the highest-volume routes, where the line per request is a cost line of its own (docs/cost.md).
   */
  successLog?: { every: number; reason: string };
  /** Per-route API Gateway throttling (requests per second, burst). */
  throttle?: { rate: number; burst: number };
  /** OpenAPI tag. */
  tag: string;
}

/** One row of the route table (`functions/routes.ts`): a function and its HTTP route. */
export type RouteRow = FunctionRow & HttpRoute;

/**
 * A studio route: a creator acting as one (their profile, shows, channel, stream key, payouts,
 * plan). With the operator's `creatorSecondFactor: required` these need a token whose sign-in
 * passed a second factor (shared/http/middleware/step-up.ts).
 */
export const isStudioRoute = (row: Pick<RouteRow, 'path'>): boolean => row.path.startsWith('/studio/');

/** A row's rate-limit rules as a list (none, one or several). */
export const rateLimitsOf = (row: Pick<RouteRow, 'rateLimit'>): readonly RateLimit[] =>
  row.rateLimit === undefined ? [] : 'limit' in row.rateLimit ? [row.rateLimit] : row.rateLimit;

/** `GET /creators/{id}`: the API Gateway route key, also used by the local server. */
export const routeKey = (row: Pick<RouteRow, 'method' | 'path'>): string =>
  row.path === '$default' ? '$default' : `${row.method} ${row.path}`;
