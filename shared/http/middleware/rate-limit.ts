import { enforceRateLimit } from '../rate-limit.ts';
import { type HttpMiddleware, type HttpRequest, stateOf, withHeaders } from './state.ts';

/**
 * Applies the route row's request budget (429 with `reason: rate_limit` past it), counted per
 * account or per IP address in the table (shared/http/rate-limit.ts), and adds the `RateLimit`
 * headers to a successful answer. Runs after `authenticate()`: an account budget needs the caller.
 * Imported statically on purpose: a dynamic `import()` of it made esbuild wrap lib-dynamodb and
 * the DynamoDB client for lazy initialisation, which pulls every command and its schemas into
 * every bundle and evaluates them at init (−53 KB and a faster cold import without it;
 * docs/performance.md "Bundles and cold starts").
 */
export const rateLimit = (): HttpMiddleware => ({
  before: async (request: HttpRequest) => {
    const state = stateOf(request);
    const rule = state.route?.rateLimit;
    if (!rule) return;
    const { event } = request;
    const client =
      rule.by === 'account' && state.principal
        ? `acct:${state.principal.accountId}`
        : `ip:${event.requestContext.http.sourceIp}`;
    state.limitHeaders = await enforceRateLimit(event.routeKey, client, rule, state.now);
  },
  after: async (request) => {
    const headers = stateOf(request).limitHeaders;
    if (headers && request.response) request.response = withHeaders(request.response, headers);
  },
});
