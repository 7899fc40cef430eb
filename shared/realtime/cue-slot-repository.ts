import { TABLE, tableName } from '../db/table.ts';
import { type TransactOperation, transactWriteIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';

/**
 * Cue slots (the budget of IVS PutMetadata calls, shared/realtime/cues.ts): key design and the one
 * write. Per second, one counter per channel, PK `CUESLOT#CH#<channel>#<second>`, and one for the
 * account, PK `CUESLOT#ACCOUNT#<second>`; SK `COUNT` → `n`, TTL an hour after the second.
 */
const take = (scope: string, second: number, max: number): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: { PK: `CUESLOT#${scope}#${second}`, SK: 'COUNT' },
    ...withCondition(updateOf({ add: { n: 1 }, set: { [TABLE.ttlAttribute]: second + 3600 } }), {
      expression: 'attribute_not_exists(#c0) OR #c0 < :c0',
      names: { '#c0': 'n' },
      values: { ':c0': max },
    }),
  },
});

/**
 * Takes one slot of `second` from the channel's budget (`perChannel` a second) and the account's
 * (`perAccount`) at once (one transaction); false, nothing taken, when either is full.
 */
export const takeCueSlot = (
  channelId: string,
  second: number,
  limits: { perChannel: number; perAccount: number },
): Promise<boolean> =>
  transactWriteIf([
    take(`CH#${channelId}`, second, limits.perChannel),
    take('ACCOUNT', second, limits.perAccount),
  ]);
