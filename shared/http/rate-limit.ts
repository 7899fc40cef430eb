import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { TooManyRequestsError } from './errors.ts';

/** A route's request budget: `limit` requests per `windowSeconds` per client. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
  /** Who the budget belongs to: the caller's IP address, or the signed-in account (IP when anonymous). */
  by: 'ip' | 'account';
}

/**
 * Fixed-window rate limiting in the table: one atomic UpdateItem per request
 * (PK `RATE#<route>#<client>`, SK `<window start>`, TTL two windows later). Answers 429 with
 * `Retry-After` and the IETF `RateLimit`/`RateLimit-Policy` headers; the error's `kind` is
 * `rate_limit`, so clients can tell it from the concurrent-stream 429.
 * Returns the headers to add to a successful response.
 */
export const enforceRateLimit = async (
  routeKey: string,
  client: string,
  rule: RateLimit,
  now: Date,
): Promise<Record<string, string>> => {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const reset = windowStart + rule.windowSeconds - nowSeconds;
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: `RATE#${routeKey}#${client}`, SK: String(windowStart) },
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
