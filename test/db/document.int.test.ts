import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { db, dynamo } from '../../shared/db/client.ts';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '../../shared/db/document.ts';
import { ScanCommand } from '../../shared/db/scan.ts';
import { tableName } from '../../shared/db/table.ts';

const item = (PK: string, SK: string) => ({
  PK,
  SK,
  name: `n ${SK}`,
  count: 3,
  big: 2 ** 40,
  flag: true,
  nothing: null,
  gone: undefined,
  list: ['a', 1, { deep: [false] }],
  map: { a: { b: 'c' }, empty: {} },
  tags: new Set(['x', 'y']),
});
const stored = (PK: string, SK: string) => {
  const { gone: _, ...rest } = item(PK, SK);
  return rest;
};

describe('the document client (shared/db/document.ts)', () => {
  it('writes and reads plain values through every command, leaving undefined members out', async () => {
    const TableName = tableName();
    const PK = `doc#${randomUUID()}`;
    await db.send(new PutCommand({ TableName, Item: item(PK, 'a') }));
    expect((await db.send(new GetCommand({ TableName, Key: { PK, SK: 'a' } }))).Item).toEqual(
      stored(PK, 'a'),
    );

    const updated = await db.send(
      new UpdateCommand({
        TableName,
        Key: { PK, SK: 'a' },
        UpdateExpression: 'SET #c = #c + :one, #m.a = :m',
        ConditionExpression: 'flag = :t',
        ExpressionAttributeNames: { '#c': 'count', '#m': 'map' },
        ExpressionAttributeValues: { ':one': 1, ':m': { z: [1, 2] }, ':t': true },
        ReturnValues: 'ALL_NEW',
      }),
    );
    expect(updated.Attributes).toMatchObject({ count: 4, map: { a: { z: [1, 2] } } });

    await db.send(
      new BatchWriteCommand({
        RequestItems: {
          [TableName]: [{ PutRequest: { Item: item(PK, 'b') } }, { PutRequest: { Item: item(PK, 'c') } }],
        },
      }),
    );
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: item(PK, 'd'), ConditionExpression: 'attribute_not_exists(PK)' } },
          {
            Update: {
              TableName,
              Key: { PK, SK: 'b' },
              UpdateExpression: 'SET flag = :f',
              ExpressionAttributeValues: { ':f': false },
            },
          },
          {
            ConditionCheck: {
              TableName,
              Key: { PK, SK: 'c' },
              ConditionExpression: 'flag = :t',
              ExpressionAttributeValues: { ':t': true },
            },
          },
          { Delete: { TableName, Key: { PK, SK: 'a' } } },
        ],
      }),
    );

    const got = await db.send(
      new BatchGetCommand({
        RequestItems: {
          [TableName]: {
            Keys: [
              { PK, SK: 'b' },
              { PK, SK: 'd' },
            ],
          },
        },
      }),
    );
    const bySk = new Map(got.Responses?.[TableName]?.map((i) => [i.SK, i]));
    expect(bySk.get('b')).toEqual({ ...stored(PK, 'b'), flag: false });
    expect(bySk.get('d')).toEqual(stored(PK, 'd'));

    const first = await db.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': PK },
        Limit: 2,
      }),
    );
    expect(first.Items?.map((i) => i.SK)).toEqual(['b', 'c']);
    expect(first.LastEvaluatedKey).toEqual({ PK, SK: 'c' });
    const rest = await db.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': PK },
        ExclusiveStartKey: first.LastEvaluatedKey,
      }),
    );
    expect(rest.Items).toEqual([stored(PK, 'd')]);

    const deleted = await db.send(
      new DeleteCommand({ TableName, Key: { PK, SK: 'd' }, ReturnValues: 'ALL_OLD' }),
    );
    expect(deleted.Attributes).toEqual(stored(PK, 'd'));
    const scanned = await db.send(new ScanCommand({ TableName, Limit: 3 }));
    expect(scanned.Items).toHaveLength(3);
    for (const found of scanned.Items ?? []) expect(typeof found.PK).toBe('string');
    expect(typeof scanned.LastEvaluatedKey?.PK).toBe('string');
  });

  it("resolves a command's middleware stack once, and again after the stack changes", async () => {
    const TableName = tableName();
    const Key = { PK: `doc#${randomUUID()}`, SK: 'x' };
    const resolved = vi.spyOn(GetItemCommand.prototype, 'resolveMiddleware');
    const seen: string[] = [];
    try {
      await db.send(new GetCommand({ TableName, Key }));
      await db.send(new GetCommand({ TableName, Key }));
      const afterFirst = resolved.mock.calls.length;
      // A middleware added after the first calls (as a test's fault injection is) still runs.
      dynamo.middlewareStack.add(
        (next, context) => async (args) => {
          seen.push(String(context.commandName));
          return next(args);
        },
        { step: 'initialize', name: 'documentTestProbe' },
      );
      await db.send(new GetCommand({ TableName, Key }));
      await db.send(new GetCommand({ TableName, Key }));
      expect(afterFirst).toBeLessThanOrEqual(1);
      expect(resolved.mock.calls.length).toBe(afterFirst + 1);
      expect(seen).toEqual(['GetItemCommand', 'GetItemCommand']);
      dynamo.middlewareStack.remove('documentTestProbe');
      await db.send(new GetCommand({ TableName, Key }));
      expect(seen).toHaveLength(2);
    } finally {
      resolved.mockRestore();
      dynamo.middlewareStack.remove('documentTestProbe');
    }
  });
});
