import { createHash } from 'node:crypto';
import { db } from '../db/client.ts';
import { UpdateCommand } from '../db/document.ts';
import { TABLE, tableName } from '../db/table.ts';
import { updateOf } from '../db/update.ts';

/**
 * Rate-limit counters (the rule is shared/http/rate-limit.ts): key design and the one write.
 * Counter: PK `rateLimitKey(route, client)`, SK `<window start, epoch seconds>` → `count`, TTL two
 * windows later.
 */

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

/** Is this the key of a rate-limit counter? */
export const isRateLimitCounter = (key: Record<string, unknown>): boolean =>
  String(key[TABLE.partitionKey]).startsWith('RATE#');

/**
 * Counts one request of `client` on `routeKey` in the window starting at `window.start` (epoch
 * seconds): one atomic UpdateItem, the counter expiring at `window.expiresAt` (set by the first
 * request). The window's count after this request.
 */
export const countRequest = async (
  routeKey: string,
  client: string,
  window: { start: number; expiresAt: number },
): Promise<number> => {
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: rateLimitKey(routeKey, client), SK: String(window.start) },
      ...updateOf({ add: { count: 1 }, setIfAbsent: { [TABLE.ttlAttribute]: window.expiresAt } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.count ?? 1);
};
