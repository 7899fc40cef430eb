import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TABLE } from '../../shared/db/table.ts';
import { writeIf } from '../../shared/db/transaction.ts';
import { updateOf, withCondition } from '../../shared/db/update.ts';

// shared/db's own plumbing: the key attributes come from the table definition, not an entity.
const keyOf = (id: string) => ({ [TABLE.partitionKey]: `write-if#${id}`, [TABLE.sortKey]: 'ITEM' });
const exists = { expression: `attribute_exists(${TABLE.partitionKey})` };
const absent = { expression: `attribute_not_exists(${TABLE.partitionKey})` };

describe('writeIf (shared/db/transaction.ts): the conditional single-item write', () => {
  it('answers written or refused for a Put, an Update and a Delete, and throws anything else', async () => {
    const Key = keyOf(randomUUID());
    const put = { Put: { Item: { ...Key, n: 1 }, ConditionExpression: absent.expression } };
    expect(await writeIf(put)).toEqual({ written: true, attributes: undefined });
    expect(await writeIf(put)).toEqual({ written: false });

    const update = {
      Update: {
        Key,
        ...withCondition(updateOf({ add: { n: 2 }, set: { name: 'x' } }), exists),
        ReturnValues: 'ALL_NEW' as const,
      },
    };
    expect(await writeIf(update)).toEqual({ written: true, attributes: { ...Key, n: 3, name: 'x' } });

    const del = { Delete: { Key, ConditionExpression: exists.expression } };
    expect((await writeIf(del)).written).toBe(true);
    expect(await writeIf(del)).toEqual({ written: false });
    expect(await writeIf(update)).toEqual({ written: false });

    await expect(
      writeIf({
        Update: { Key, UpdateExpression: 'SET #missing = :v', ExpressionAttributeValues: { ':v': 1 } },
      }),
    ).rejects.toThrow();
  });

  it('answers the item as it was when a refused write asked for ALL_OLD', async () => {
    const Key = keyOf(randomUUID());
    const raise = (peak: number) => ({
      Update: {
        Key,
        ...withCondition(updateOf({ set: { peak } }), {
          expression: 'attribute_not_exists(peak) OR peak < :c0',
          values: { ':c0': peak },
        }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    });
    expect((await writeIf(raise(5))).written).toBe(true);
    expect(await writeIf(raise(3))).toEqual({ written: false, item: { ...Key, peak: 5 } });
    // Refused with nothing there: no item.
    const del = { Delete: { Key, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } };
    expect((await writeIf(del)).written).toBe(true);
    expect(await writeIf({ Delete: { ...del.Delete, ConditionExpression: exists.expression } })).toEqual({
      written: false,
    });
  });
});
