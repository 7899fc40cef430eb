import middy from '@middy/core';
import { assertSettings } from '../platform/access.ts';
import { rateLimitsOf } from '../routing/route.ts';
import type { Principal } from '../identity/principal.ts';
import type { Contract, InputOf, ReplyOf } from './contract.ts';
import { UnauthorizedError } from '../errors/errors.ts';
import { authenticate, BUNDLED_WITHOUT_VERIFIER } from './middleware/authenticate.ts';
import { bodyLimit } from './middleware/body-limit.ts';
import { corsHeaders } from './middleware/cors-headers.ts';
import { errorEnvelopes, successResponse } from './middleware/envelopes.ts';
import { jsonBody } from './middleware/json-body.ts';
import { BUNDLED_WITHOUT_RATE_LIMITS, rateLimit } from './middleware/rate-limit.ts';
import { requestContext } from './middleware/request-context.ts';
import { requestLog } from './middleware/request-log.ts';
import { responseEncoding } from './middleware/response-encoding.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { stepUp } from './middleware/step-up.ts';
import type { HttpContext, HttpEvent, HttpResponse } from './middleware/state.ts';
import { validate } from './middleware/validate.ts';

export { errorResponse, toHttpError } from './middleware/envelopes.ts';
export { MAX_RESPONSE_BYTES } from './middleware/response-encoding.ts';

/** Largest request body accepted (bytes); larger is a 413. */
export const MAX_BODY_BYTES = 256 * 1024;

/** What a handler function receives: input validated by the contract's schemas, and request facts. */
export interface Request<C extends Contract> {
  query: InputOf<C, 'query'>;
  path: InputOf<C, 'path'>;
  body: InputOf<C, 'body'>;
  /** The verified caller, when a valid token was sent. */
  principal: Principal | undefined;
  /** The verified caller; throws 401 when there is none. */
  caller(): Principal;
  /** UUID of this request, also sent back as `x-request-id`. */
  requestId: string;
  /** The instant the request is handled at (injected clock). */
  now: Date;
  /**
   * Request headers, names lower case: API Gateway's HTTP API (payload format 2.0) delivers them
   * so, repeats joined with commas; read `authorization`, never `Authorization`.
   */
  headers: Record<string, string | undefined>;
  /**
   * The body exactly as sent (base64 bodies from API Gateway decoded), for endpoints that verify
   * a signature over it (Stripe's webhooks); empty without a body.
   */
  rawBody(): string;
}

export type LambdaHandler = ((event: HttpEvent, context?: unknown) => Promise<HttpResponse>) & {
  contract: Contract;
};

/**
 * The Lambda handler of one endpoint: its contract (shared/http/contract.ts) and the function
 * that answers it, whose reply is type-checked against the contract's success responses. One
 * middy chain, one concern per middleware (shared/http/middleware/). The `before` steps run in
 * the order used: request id, contract and clock; body size (413); authentication per the
 * contract (401); step-up for sensitive rows (401 `step_up_required`); rate limit (429); JSON parsing (415/400); validation of
 * query and path (400) and body (422). Then `fn`, whose reply becomes the contract's success
 * envelope; an answer over 1 MB is gzip-compressed for a caller that accepts gzip, and one over
 * Lambda's 6 MB is a 500 that says so (response-encoding.ts). Anything thrown becomes its error envelope; every answer gets the rate-limit headers
 * (success only), CORS headers, `x-content-type-options: nosniff` (and `cache-control: no-store`
 * when personal) and `x-request-id`, and is logged with its metrics. No header normalizer: API
 * Gateway's HTTP API (payload format 2.0) already names every request header in lower case.
 */
export const endpoint = <const C extends Contract>(
  contract: C,
  fn: (request: Request<C>) => Promise<ReplyOf<C>> | ReplyOf<C>,
): LambdaHandler => {
  // At init, as Lambda runs it (ROUTE_KEY set): every setting the contract implies must be there.
  if (process.env.ROUTE_KEY) assertSettings(contract, process.env);
  // A bundle built for an `auth: 'none'` row has no token verifier (infra/bundling.ts).
  if (BUNDLED_WITHOUT_VERIFIER && contract.auth !== 'none')
    throw new Error(`${contract.operationId} verifies tokens but was bundled without the verifier`);
  if (BUNDLED_WITHOUT_RATE_LIMITS && rateLimitsOf(contract).length > 0)
    throw new Error(`${contract.operationId} has request budgets but was bundled without the rate limiter`);
  const request = contract.request ?? {};
  const handler = middy<HttpEvent, HttpResponse, Error, HttpContext>()
    .use(requestContext(contract))
    .use(requestLog())
    .use(corsHeaders())
    .use(securityHeaders())
    .use(bodyLimit(MAX_BODY_BYTES))
    .use(authenticate())
    .use(stepUp())
    .use(rateLimit())
    .use(jsonBody(request.body !== undefined))
    .use(validate(request))
    .use(responseEncoding())
    .use(errorEnvelopes())
    .handler(async (event, context) => {
      const { route, input, principal, requestId, now } = context.http!;
      const reply = await fn({
        query: input?.query as InputOf<C, 'query'>,
        path: input?.path as InputOf<C, 'path'>,
        body: input?.body as InputOf<C, 'body'>,
        principal,
        caller: () => {
          if (!principal) throw new UnauthorizedError();
          return principal;
        },
        requestId,
        now,
        headers: event.headers ?? {},
        rawBody: () =>
          event.body
            ? event.isBase64Encoded
              ? Buffer.from(event.body, 'base64').toString('utf8')
              : event.body
            : '',
      });
      return successResponse(route, reply);
    }) as unknown as LambdaHandler;
  handler.contract = contract;
  return handler;
};
