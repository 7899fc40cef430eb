import { dynamo } from '../../shared/db/client.ts';

/**
 * DynamoDB Local answers every read from the newest data; DynamoDB does not: a global secondary
 * index, and a base-table read without `ConsistentRead: true`, may answer without a write made a
 * moment before (docs/data-model.md). `staleReads(matches)` makes this worker's client answer
 * such reads the way they may answer on AWS: until the returned `stop()`, every item written
 * whose key `matches` is left out of the answers of Query, GetItem and BatchGetItem that do not
 * ask for a consistent read (index queries can never ask). Consistent reads still see it.
 */
/** An item or key as the client sees it: plain (a document command) or marshalled (`{ S: ... }`). */
type Wire = Record<string, unknown>;
type Input = {
  ConsistentRead?: boolean;
  Item?: Wire;
  Key?: Wire;
  RequestItems?: Record<string, { ConsistentRead?: boolean }>;
  TransactItems?: Array<Record<string, { Item?: Wire; Key?: Wire }>>;
};
type Output = { Item?: Wire; Items?: Wire[]; Responses?: Record<string, Wire[]> };

const text = (value: unknown) =>
  typeof value === 'string' ? value : (value as { S?: string } | undefined)?.S;
const keyOf = (item: Wire | undefined) => `${text(item?.PK)}\u0000${text(item?.SK)}`;

let active: { matches: (pk: string, sk: string) => boolean; written: Set<string> } | undefined;
let installed = false;

const install = () => {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (!active) return result;
      const { matches, written } = active;
      const name = String(context.commandName);
      const input = args.input as Input;
      const writes = [
        input.Item,
        input.Key,
        ...(input.TransactItems ?? []).flatMap((op) => Object.values(op).map((o) => o.Item ?? o.Key)),
      ];
      if (/^(Put|Update|TransactWrite)/.test(name))
        for (const item of writes) {
          const [pk, sk] = [text(item?.PK), text(item?.SK)];
          if (pk && sk && matches(pk, sk)) written.add(keyOf(item));
        }
      const output = result.output as Output;
      const fresh = (item: Wire) => !written.has(keyOf(item));
      if (name.startsWith('Query') && !input.ConsistentRead && output.Items)
        output.Items = output.Items.filter(fresh);
      if (name.startsWith('GetItem') && !input.ConsistentRead && output.Item && !fresh(output.Item))
        output.Item = undefined;
      if (name.startsWith('BatchGet') && output.Responses)
        for (const [table, items] of Object.entries(output.Responses))
          if (!input.RequestItems?.[table]?.ConsistentRead) output.Responses[table] = items.filter(fresh);
      return result;
    },
    { step: 'initialize', name: 'staleReads' },
  );
};

/** Starts answering reads that may be stale without the items written from now on whose key `matches`. */
export const staleReads = (matches: (pk: string, sk: string) => boolean): { stop: () => void } => {
  install();
  active = { matches, written: new Set() };
  return {
    stop: () => {
      active = undefined;
    },
  };
};
