import { db } from '../db/client.ts';
import { UpdateCommand } from '../db/document.ts';
import { tableName } from '../db/table.ts';
import { updateOf } from '../db/update.ts';

/**
 * The channel number counter (a new creator's channel number, shared/projection/onboarding.ts):
 * key design and its writes. Item: PK `COUNTER#channel_number`, SK `COUNTER` → `value`, the highest
 * number given out. Numbers come from an atomic ADD: unique, and a repeated caller may skip one.
 */
const key = { PK: 'COUNTER#channel_number', SK: 'COUNTER' };

/** The counter item holding the highest channel number given out (the seed loader writes it). */
export const channelCounterItem = (value: number) => ({ ...key, value });

/** The next channel number (one atomic UpdateItem). */
export const nextChannelNumber = async (): Promise<number> => {
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      ...updateOf({ add: { value: 1 } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
};
