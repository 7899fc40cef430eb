import { UpdateCommand } from '../../shared/db/document.ts';
import { describe, expect, it } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { TABLE, tableName } from '../../shared/db/table.ts';
import { updateOf } from '../../shared/db/update.ts';
import { enforceRateLimit } from '../../shared/http/rate-limit.ts';

const rule = { limit: 10, windowSeconds: 60, by: 'ip' } as const;
/** What a 3,000-character X-Forwarded-For header made of the client part before keys were bounded. */
const hugeClient = `ip:${'203.0.113.7, '.repeat(231)}`.slice(0, 3003);

describe('rate-limit counters in DynamoDB', () => {
  it('an unbounded client part is over the partition key limit: DynamoDB refuses it (the old 500)', async () => {
    await expect(
      db.send(
        new UpdateCommand({
          TableName: tableName(),
          // The key the counter had before keys were bounded: route and client as sent.
          Key: { [TABLE.partitionKey]: `POST /auth/login#${hugeClient}`, [TABLE.sortKey]: '0' },
          ...updateOf({ add: { count: 1 } }),
        }),
      ),
    ).rejects.toThrow(/key|size|length/i);
  });

  it('a 3,000-character client is counted under its bounded key, window after window', async () => {
    const now = new Date();
    const first = await enforceRateLimit('POST /auth/login', hugeClient, rule, now);
    const second = await enforceRateLimit('POST /auth/login', hugeClient, rule, now);
    expect(first.ratelimit).toMatch(/^limit=10, remaining=9, /);
    expect(second.ratelimit).toMatch(/^limit=10, remaining=8, /);
  });
});
