/**
 * The data floor (issue 41, item 2): the floor handler's client and nothing of ours, making the
 * DynamoDB calls one function's first request made, in its phases (each phase's calls side by
 * side, as the function sent them) and with its items converted to plain values as the document
 * client does. The event carries the calls, recorded from the function itself
 * (bench/data-floor.ts). What a function takes beyond this is our code (middy, Zod, the domain,
 * the response); what this takes beyond the floor's one GetItem is the data the route reads.
 */
import {
  BatchGetItemCommand,
  DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  ScanCommand,
  TransactGetItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

const client = new DynamoDBClient({});
const COMMANDS = {
  GetItem: GetItemCommand,
  Query: QueryCommand,
  Scan: ScanCommand,
  BatchGetItem: BatchGetItemCommand,
  TransactGetItems: TransactGetItemsCommand,
  // A rate-limit counter (rows with budgets): replayed as sent, a refused condition included.
  UpdateItem: UpdateItemCommand,
} as const;

/** Whether the data floor can replay an operation. */
export const replayable = (op: string): op is keyof typeof COMMANDS => op in COMMANDS;

/** One recorded call: the operation (X-Amz-Target's) and its wire input. */
export interface DataFloorCall {
  op: keyof typeof COMMANDS;
  input: never;
}

type Wire = Parameters<typeof unmarshall>[0];
const items = (o: { Item?: Wire; Items?: Wire[]; Responses?: unknown }): unknown[] => [
  ...(o.Item ? [unmarshall(o.Item)] : []),
  ...(o.Items ?? []).map((i) => unmarshall(i)),
  ...(Array.isArray(o.Responses)
    ? o.Responses.map((r: { Item?: Wire }) => (r.Item ? unmarshall(r.Item) : null))
    : Object.values((o.Responses ?? {}) as Record<string, Wire[]>).flatMap((list) =>
        list.map((i) => unmarshall(i)),
      )),
];

export const handler = async (event: { phases: DataFloorCall[][] }) => {
  let count = 0;
  for (const phase of event.phases) {
    const outputs = await Promise.all(
      phase.map((c) =>
        // A refused condition is still the round trip the function waited for.
        client
          .send(new (COMMANDS[c.op] as typeof GetItemCommand)(c.input))
          .catch((error: { name?: string }) => {
            if (error.name === 'ConditionalCheckFailedException') return {};
            throw error;
          }),
      ),
    );
    for (const o of outputs) count += items(o as never).length;
  }
  return { statusCode: 200, body: JSON.stringify({ items: count }) };
};
