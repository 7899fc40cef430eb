import * as ddb from '@aws-sdk/client-dynamodb';
import type * as doc from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * The table's calls in plain JavaScript values: the commands of `@aws-sdk/lib-dynamodb` (same
 * names, inputs and outputs; its types), sent through the low-level client with its resolved
 * middleware stack kept per command (`DocumentClient`). lib-dynamodb resolves and sorts the
 * whole stack on every call, and refuses the SDK's `cacheMiddleware`; this does neither (a warm
 * Query 0.81 → 0.74 ms against DynamoDB Local, docs/performance.md "Warm requests").
 * Only the members that carry items, keys and values are converted, as lib-dynamodb does; an
 * error's `Item` (ReturnValuesOnConditionCheckFailure) stays marshalled, as it does there.
 */
export type { QueryCommandInput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

type Map = Record<string, unknown>;
type Wire = Record<string, ddb.AttributeValue>;

const OPTIONS = { removeUndefinedValues: true } as const;
const m = (value: Map | undefined) => (value === undefined ? undefined : marshall(value, OPTIONS));
const u = (value: Wire | undefined) => (value === undefined ? undefined : unmarshall(value));
const values = <T extends { ExpressionAttributeValues?: Map }>(input: T) =>
  input.ExpressionAttributeValues === undefined
    ? input
    : { ...input, ExpressionAttributeValues: m(input.ExpressionAttributeValues) };
const writeRequest = (
  r: { PutRequest?: { Item?: Map }; DeleteRequest?: { Key?: Map } },
  f: typeof m | typeof u,
) => ({
  ...(r.PutRequest ? { PutRequest: { Item: f(r.PutRequest.Item as never) } } : {}),
  ...(r.DeleteRequest ? { DeleteRequest: { Key: f(r.DeleteRequest.Key as never) } } : {}),
});
const withAttributes = <O extends { Attributes?: Wire }>(o: O) => ({ ...o, Attributes: u(o.Attributes) });
const perTable = <T, R>(tables: Record<string, T> | undefined, f: (value: T) => R) =>
  tables === undefined ? undefined : Object.fromEntries(Object.entries(tables).map(([t, v]) => [t, f(v)]));

/** One call: its input as given, and how it goes to and comes back from the wire. */
export abstract class DocumentCommand<Input, Output> {
  constructor(readonly input: Input) {}
  /** The low-level command (marshalled input). */
  abstract toWire(): object;
  abstract fromWire(output: never): Output;
}

export class GetCommand extends DocumentCommand<doc.GetCommandInput, doc.GetCommandOutput> {
  toWire() {
    return new ddb.GetItemCommand({ ...this.input, Key: m(this.input.Key) });
  }
  fromWire(o: ddb.GetItemCommandOutput) {
    return { ...o, Item: u(o.Item) };
  }
}

export class PutCommand extends DocumentCommand<doc.PutCommandInput, doc.PutCommandOutput> {
  toWire() {
    return new ddb.PutItemCommand({ ...values(this.input), Item: m(this.input.Item)! });
  }
  fromWire(o: ddb.PutItemCommandOutput) {
    return withAttributes(o) as doc.PutCommandOutput;
  }
}

export class UpdateCommand extends DocumentCommand<doc.UpdateCommandInput, doc.UpdateCommandOutput> {
  toWire() {
    return new ddb.UpdateItemCommand({
      ...values(this.input),
      Key: m(this.input.Key),
    } as ddb.UpdateItemInput);
  }
  fromWire(o: ddb.UpdateItemCommandOutput) {
    return withAttributes(o) as doc.UpdateCommandOutput;
  }
}

export class DeleteCommand extends DocumentCommand<doc.DeleteCommandInput, doc.DeleteCommandOutput> {
  toWire() {
    return new ddb.DeleteItemCommand({
      ...values(this.input),
      Key: m(this.input.Key),
    } as ddb.DeleteItemInput);
  }
  fromWire(o: ddb.DeleteItemCommandOutput) {
    return withAttributes(o) as doc.DeleteCommandOutput;
  }
}

/** A Query's (or an operator Scan's, shared/db/scan.ts) input with its values and start key marshalled. */
export const pageInput = <T extends { ExpressionAttributeValues?: Map; ExclusiveStartKey?: Map }>(
  input: T,
) => {
  const marshalled = values(input);
  return { ...marshalled, ExclusiveStartKey: m(marshalled.ExclusiveStartKey) };
};

/** A Query's (or an operator Scan's, shared/db/scan.ts) page with its items and key unmarshalled. */
export const pageOf = <O extends { Items?: Wire[]; LastEvaluatedKey?: Wire }>(o: O) => ({
  ...o,
  Items: o.Items?.map((item) => u(item)!),
  LastEvaluatedKey: u(o.LastEvaluatedKey),
});

export class QueryCommand extends DocumentCommand<doc.QueryCommandInput, doc.QueryCommandOutput> {
  toWire() {
    return new ddb.QueryCommand(pageInput(this.input) as ddb.QueryInput);
  }
  fromWire(o: ddb.QueryCommandOutput) {
    return pageOf(o) as doc.QueryCommandOutput;
  }
}

export class BatchGetCommand extends DocumentCommand<doc.BatchGetCommandInput, doc.BatchGetCommandOutput> {
  toWire() {
    return new ddb.BatchGetItemCommand({
      ...this.input,
      RequestItems: perTable(this.input.RequestItems, (t) => ({ ...t, Keys: t.Keys?.map((k) => m(k)!) })),
    } as ddb.BatchGetItemInput);
  }
  fromWire(o: ddb.BatchGetItemCommandOutput) {
    return {
      ...o,
      Responses: perTable(o.Responses, (items) => items.map((item) => u(item)!)),
      UnprocessedKeys: perTable(o.UnprocessedKeys, (t) => ({ ...t, Keys: t.Keys?.map((k) => u(k)!) })),
    } as doc.BatchGetCommandOutput;
  }
}

export class BatchWriteCommand extends DocumentCommand<
  doc.BatchWriteCommandInput,
  doc.BatchWriteCommandOutput
> {
  toWire() {
    return new ddb.BatchWriteItemCommand({
      ...this.input,
      RequestItems: perTable(this.input.RequestItems, (rs) => rs.map((r) => writeRequest(r, m))),
    } as ddb.BatchWriteItemInput);
  }
  fromWire(o: ddb.BatchWriteItemCommandOutput) {
    const unprocessed = perTable(o.UnprocessedItems, (rs) => rs.map((r) => writeRequest(r as never, u)));
    return { ...o, UnprocessedItems: unprocessed } as doc.BatchWriteCommandOutput;
  }
}

type TransactItem = NonNullable<doc.TransactWriteCommandInput['TransactItems']>[number];

export class TransactWriteCommand extends DocumentCommand<
  doc.TransactWriteCommandInput,
  doc.TransactWriteCommandOutput
> {
  toWire() {
    const operation = (item: TransactItem) => {
      if (item.Put) return { Put: { ...values(item.Put), Item: m(item.Put.Item) } };
      if (item.Update) return { Update: { ...values(item.Update), Key: m(item.Update.Key) } };
      if (item.Delete) return { Delete: { ...values(item.Delete), Key: m(item.Delete.Key) } };
      if (item.ConditionCheck)
        return { ConditionCheck: { ...values(item.ConditionCheck), Key: m(item.ConditionCheck.Key) } };
      throw new Error('TransactWriteCommand: an operation without Put, Update, Delete or ConditionCheck');
    };
    return new ddb.TransactWriteItemsCommand({
      ...this.input,
      TransactItems: this.input.TransactItems?.map(operation),
    } as ddb.TransactWriteItemsInput);
  }
  fromWire(o: ddb.TransactWriteItemsCommandOutput) {
    return o as doc.TransactWriteCommandOutput;
  }
}

type Handler = (command: unknown) => Promise<{ output: unknown }>;
const STACK_CHANGES = ['add', 'addRelativeTo', 'use', 'remove', 'removeByTag'] as const;

/**
 * Sends `DocumentCommand`s through `client`. Each low-level command's middleware stack is
 * resolved once (what the SDK's `cacheMiddleware` does) and resolved again after the client's
 * stack changes (the local platform's IAM guard, a test's fault injection or the bench's recorder
 * add theirs at any time).
 */
export class DocumentClient {
  private handlers = new WeakMap<object, Handler>();

  constructor(readonly client: ddb.DynamoDBClient) {
    const stack = client.middlewareStack as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of STACK_CHANGES) {
      const change = stack[name]!.bind(stack);
      stack[name] = (...args: unknown[]) => {
        this.handlers = new WeakMap();
        return change(...args);
      };
    }
  }

  async send<Output>(command: DocumentCommand<unknown, Output>): Promise<Output> {
    const wire = command.toWire() as unknown as ddb.GetItemCommand;
    let handler = this.handlers.get(wire.constructor);
    if (!handler) {
      handler = wire.resolveMiddleware(this.client.middlewareStack, this.client.config, undefined) as Handler;
      this.handlers.set(wire.constructor, handler);
    }
    const { output } = await handler(wire);
    return command.fromWire(output as never);
  }
}
