import { routesByKey } from '../../functions/routes.ts';
import type { Contract, RequestSchemas } from '../../shared/http/contract.ts';
import { endpoint, type LambdaHandler, type Request } from '../../shared/http/handler.ts';
import type { HttpEvent } from '../../shared/http/middleware/state.ts';
import type { Reply } from '../../shared/http/reply.ts';

/**
 * A handler for the HTTP layer's own tests: `request` schemas and a function of ours, answering
 * with the contract of whichever route the event names (its auth, rate limit and envelope).
 */
export const testEndpoint = (
  request: RequestSchemas,
  fn: (request: Request<any> & { query: any; path: any; body: any }) => Reply | Promise<Reply>,
): LambdaHandler => {
  const byRoute = new Map<string, LambdaHandler>();
  const handler = (event: HttpEvent, context?: unknown) => {
    let made = byRoute.get(event.routeKey);
    if (!made) {
      const route = routesByKey.get(event.routeKey);
      if (!route) throw new Error(`No contract for ${event.routeKey}`);
      made = endpoint({ ...route, request } as Contract, fn as never);
      byRoute.set(event.routeKey, made);
    }
    return made(event, context);
  };
  return Object.assign(handler, { contract: routesByKey.get('GET /creators')! });
};
