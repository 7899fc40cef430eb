import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type * as z from 'zod/mini';
import { routesByKey } from '../../functions/routes.ts';
import { assertSettings } from '../platform/access.ts';
import type { Principal } from './auth.ts';
import { UnauthorizedError } from './errors.ts';
import { authenticate } from './middleware/authenticate.ts';
import { bodyLimit } from './middleware/body-limit.ts';
import { corsHeaders } from './middleware/cors-headers.ts';
import { errorEnvelopes, successResponse } from './middleware/envelopes.ts';
import { jsonBody } from './middleware/json-body.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestContext } from './middleware/request-context.ts';
import { requestLog } from './middleware/request-log.ts';
import type { HttpContext, HttpEvent, HttpResponse } from './middleware/state.ts';
import { validate } from './middleware/validate.ts';
import type { Reply } from './reply.ts';

export { errorResponse, toHttpError } from './middleware/envelopes.ts';

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

export type LambdaHandler = ((event: HttpEvent, context?: unknown) => Promise<HttpResponse>) & {
  schemas: EndpointSchemas<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>;
};

type Infer<S> = S extends z.ZodMiniType ? z.infer<S> : undefined;

/**
 * Builds a Lambda handler for one endpoint: one middy chain, one concern per middleware
 * (shared/http/middleware/). The `before` steps run in the order used: request id, route row
 * and clock; header names lower-cased; body size (413); authentication per the route row (401);
 * rate limit (429); JSON parsing (415/400); zod validation of query and path (400) and body
 * (422). Then the handler function, whose Reply becomes the route's success envelope. Anything
 * thrown becomes the route's error envelope; every answer gets the rate-limit headers (success
 * only), CORS headers and `x-request-id`, and is logged with its metrics.
 */
export const httpHandler = <
  Q extends z.ZodMiniType = z.ZodMiniType,
  P extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType = z.ZodMiniType,
>(
  schemas: EndpointSchemas<Q, P, B>,
  fn: (request: Request<Infer<Q>, Infer<P>, Infer<B>>) => Promise<Reply> | Reply,
): LambdaHandler => {
  // At init, as Lambda runs it (ROUTE_KEY set): every setting the route's row implies must be there.
  const self = process.env.ROUTE_KEY ? routesByKey.get(process.env.ROUTE_KEY) : undefined;
  if (self) assertSettings(self, process.env);
  const handler = middy<HttpEvent, HttpResponse, Error, HttpContext>()
    .use(requestContext())
    .use(requestLog())
    .use(corsHeaders())
    .use(httpHeaderNormalizer())
    .use(bodyLimit(MAX_BODY_BYTES))
    .use(authenticate())
    .use(rateLimit())
    .use(jsonBody(schemas.body !== undefined))
    .use(validate(schemas))
    .use(errorEnvelopes())
    .handler(async (event, context) => {
      const { route, input, principal, requestId, now } = context.http!;
      const reply = await fn({
        query: input?.query as Infer<Q>,
        path: input?.path as Infer<P>,
        body: input?.body as Infer<B>,
        principal,
        caller: () => {
          if (!principal) throw new UnauthorizedError();
          return principal;
        },
        requestId,
        now,
        headers: event.headers ?? {},
      });
      return successResponse(route, reply);
    }) as unknown as LambdaHandler;
  handler.schemas = schemas as EndpointSchemas<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>;
  return handler;
};
