/**
 * The API's one CORS policy: any origin, the methods and request headers the browser clients
 * use, and the response headers they may read. The handlers answer with `CORS_HEADERS`, the
 * local gateway answers preflights with `CORS_PREFLIGHT_HEADERS`, and the stack configures API
 * Gateway's preflight from `CORS` (infra/stack.ts).
 */
export const CORS = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type'],
  exposeHeaders: ['x-request-id', 'retry-after', 'ratelimit', 'ratelimit-policy'],
  /** How long a browser may cache a preflight answer: API Gateway (maxAge) and the local gateway alike. */
  preflightMaxAgeSeconds: 600,
} as const;

const common = {
  'access-control-allow-origin': CORS.allowOrigins.join(','),
  'access-control-allow-headers': CORS.allowHeaders.join(','),
  'access-control-allow-methods': CORS.allowMethods.join(','),
};

/** The CORS headers of every API response. */
export const CORS_HEADERS = {
  ...common,
  'access-control-expose-headers': CORS.exposeHeaders.join(','),
};

/** The headers of a preflight (OPTIONS) answer. */
export const CORS_PREFLIGHT_HEADERS = {
  ...common,
  'access-control-max-age': String(CORS.preflightMaxAgeSeconds),
};
