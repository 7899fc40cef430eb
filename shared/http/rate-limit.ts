import { TooManyRequestsError } from '../errors/errors.ts';
import type { RateLimit } from '../routing/route.ts';
import { countRequest } from './rate-limit-repository.ts';

export type { RateLimit };

/**
 * `LOCAL_RATE_LIMITS`, the local platform's one setting for its budgets (production never sets
 * it): unset = the route table's limits; `off` = per-IP limits not checked at all (per-account
 * limits still are); a number N > 0 = every limit multiplied by N (at least 1). Read on every
 * request, so a test can change it between requests.
 */
export const effectiveRateLimit = (
  rule: RateLimit,
  setting = process.env.LOCAL_RATE_LIMITS,
): RateLimit | undefined => {
  const value = setting?.trim();
  if (value === undefined || value === '') return rule;
  if (value.toLowerCase() === 'off') return rule.by === 'ip' ? undefined : rule;
  const factor = Number(value);
  if (!Number.isFinite(factor) || factor <= 0) {
    throw new Error(`LOCAL_RATE_LIMITS must be 'off' or a number above 0 (got '${setting}')`);
  }
  return { ...rule, limit: Math.max(1, Math.floor(rule.limit * factor)) };
};

/**
 * Fixed-window rate limiting in the table: one atomic UpdateItem per request on the counter of
 * the route, the client and the window (shared/http/rate-limit-repository.ts). Answers 429 with
 * `Retry-After` and the IETF `RateLimit`/`RateLimit-Policy` headers; the error's `kind` is
 * `rate_limit`, so clients can tell it from the concurrent-stream 429.
 * Returns the headers to add to a successful response (none when LOCAL_RATE_LIMITS switched the
 * rule off).
 */
export const enforceRateLimit = async (
  routeKey: string,
  client: string,
  routeRule: RateLimit,
  now: Date,
): Promise<Record<string, string>> => {
  const rule = effectiveRateLimit(routeRule);
  if (!rule) return {};
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const reset = windowStart + rule.windowSeconds - nowSeconds;
  const count = await countRequest(routeKey, client, {
    start: windowStart,
    expiresAt: windowStart + 2 * rule.windowSeconds,
  });
  const remaining = Math.max(0, rule.limit - count);
  const headers = {
    ratelimit: `limit=${rule.limit}, remaining=${remaining}, reset=${reset}`,
    'ratelimit-policy': `${rule.limit};w=${rule.windowSeconds}`,
  };
  if (count > rule.limit) {
    throw new TooManyRequestsError('Too many requests, retry later', 'rate_limit', {
      ...headers,
      'retry-after': String(reset),
    });
  }
  return headers;
};
