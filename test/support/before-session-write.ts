import { randomUUID } from 'node:crypto';
import { dynamo } from '../../shared/db/client.ts';

/**
 * Forces a race with a sign-in: `between` runs once, when the next sign-in is about to store its
 * session (the TransactWriteItems whose first operation puts a `REFRESH#` family), so after the
 * sign-in read the account and before its session is written; the sign-in goes on when `between`
 * has finished. Until the returned `stop()`; `ran` tells whether it did.
 */
export const beforeSessionWrite = (between: () => Promise<void>) => {
  const name = `beforeSessionWrite-${randomUUID()}`;
  const state = { ran: false };
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const operations = (args.input as { TransactItems?: Array<{ Put?: { Item?: { PK?: unknown } } }> })
        .TransactItems;
      const pk = operations?.[0]?.Put?.Item?.PK;
      const key = typeof pk === 'string' ? pk : (pk as { S?: string } | undefined)?.S;
      if (
        !state.ran &&
        String(context.commandName).startsWith('TransactWrite') &&
        key?.startsWith('REFRESH#')
      ) {
        state.ran = true;
        await between();
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    get ran() {
      return state.ran;
    },
    stop: () => dynamo.middlewareStack.remove(name),
  };
};
