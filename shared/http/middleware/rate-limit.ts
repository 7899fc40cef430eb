import { type HttpMiddleware, type HttpRequest, stateOf, withHeaders } from './state.ts';

/**
 * Applies the route row's request budget (429 with `reason: rate_limit` past it), counted per
 * account or per IP address in the table (shared/http/rate-limit.ts, loaded lazily: most routes
 * have no budget), and adds the `RateLimit` headers to a successful answer. Runs after
 * `authenticate()`: an account budget needs the caller.
 */
export const rateLimit = (): HttpMiddleware => ({
  before: async (request: HttpRequest) => {
    const state = stateOf(request);
    const rule = state.route?.rateLimit;
    if (!rule) return;
    const { enforceRateLimit } = await import('../rate-limit.ts');
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
