import { createHash } from 'node:crypto';
import { UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { TooManyRequestsError } from '../errors/errors.ts';
import type { RateLimit } from '../routing/route.ts';

export type { RateLimit };

/** Route keys longer than this (bytes) are hashed too; the route table's are far shorter. */
const MAX_ROUTE_KEY_BYTES = 512;

const digest = (value: string): string => createHash('sha256').update(value).digest('base64url');

/**
 * The counter's partition key: `RATE#<route key>#<SHA-256 of the client, base64url>`. The client
 * part comes from the caller (an address from a header, an account id), so it is always hashed:
 * whatever its length the key stays under 600 bytes, far inside DynamoDB's 2,048-byte partition
 * key limit, and no client string can reach another client's counter.
 */
export const rateLimitKey = (routeKey: string, client: string): string => {
  const route = Buffer.byteLength(routeKey) > MAX_ROUTE_KEY_BYTES ? `~${digest(routeKey)}` : routeKey;
  return `RATE#${route}#${digest(client)}`;
};

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
 * Fixed-window rate limiting in the table: one atomic UpdateItem per request
 * (PK `rateLimitKey(route, client)`, SK `<window start>`, TTL two windows later). Answers 429 with
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
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: rateLimitKey(routeKey, client), SK: String(windowStart) },
      UpdateExpression: 'ADD #count :one SET expires_at_epoch = if_not_exists(expires_at_epoch, :expires)',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':expires': windowStart + 2 * rule.windowSeconds },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number(result.Attributes?.count ?? 1);
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
