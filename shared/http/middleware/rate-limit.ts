import { enforceRateLimit } from '../rate-limit.ts';
import { rateLimitsOf } from '../../routing/route.ts';
import { type HttpMiddleware, type HttpRequest, stateOf, withHeaders } from './state.ts';

/**
 * True in a bundle built for a route row that has no request budgets: the Lambda bundler replaces
 * `process.env.LAMBDA_BUNDLE_RATE_LIMIT` with `"none"` for such rows (infra/bundling.ts
 * `bundleDefineOf`), so the bundle carries neither the limiter nor the counter's UpdateItem.
 * `endpoint` refuses at init a row with budgets in such a bundle.
 */
export const BUNDLED_WITHOUT_RATE_LIMITS = process.env.LAMBDA_BUNDLE_RATE_LIMIT === 'none';

const limiter = (): HttpMiddleware => ({
  before: async (request: HttpRequest) => {
    const state = stateOf(request);
    const rules = state.route ? rateLimitsOf(state.route) : [];
    const { event } = request;
    const ip = `ip:${event.requestContext.http.sourceIp}`;
    const perIp = rules.some((rule) => rule.by === 'ip');
    let strictest: { remaining: number; headers: Record<string, string> } | undefined;
    for (const rule of rules) {
      const client = rule.by === 'account' && state.principal ? `acct:${state.principal.accountId}` : ip;
      // Beside a per-IP rule, a per-account one counts signed-in callers only.
      if (rule.by === 'account' && !state.principal && perIp) continue;
      const headers = await enforceRateLimit(event.routeKey, client, rule, state.now);
      const remaining = Number(/remaining=(\d+)/.exec(headers.ratelimit ?? '')?.[1] ?? Infinity);
      if (!strictest || remaining < strictest.remaining) strictest = { remaining, headers };
    }
    state.limitHeaders = strictest?.headers;
  },
  after: async (request) => {
    const headers = stateOf(request).limitHeaders;
    if (headers && request.response) request.response = withHeaders(request.response, headers);
  },
});

/**
 * Applies the route row's request budgets (429 with `reason: rate_limit` past any), counted per
 * account or per IP address in the table (shared/http/rate-limit.ts), and adds the `RateLimit`
 * headers to a successful answer. Runs after `authenticate()`: an account budget needs the caller.
 * Imported statically on purpose: a dynamic `import()` of it made esbuild wrap lib-dynamodb and
 * the DynamoDB client for lazy initialisation, which pulls every command and its schemas into
 * every bundle and evaluates them at init (−53 KB and a faster cold import without it;
 * docs/performance.md "Bundles and cold starts").
 */
export const rateLimit = (): HttpMiddleware[] =>
  // A bundle built for a row without budgets has no limiter (infra/bundling.ts bundleDefineOf):
  // esbuild folds this test and leaves out shared/http/rate-limit.ts with its counter write.
  process.env.LAMBDA_BUNDLE_RATE_LIMIT === 'none' ? [] : [limiter()];
