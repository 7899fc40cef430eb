import { creatorKey } from '../../shared/creators/creator-repository.ts';
import { GetCommand, QueryCommand } from '../../shared/db/document.ts';
import { describe, expect, it } from 'vitest';
import { routesByKey } from '../../functions/routes.ts';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contextOf as functionContextOf, runAsFunction } from '../../scripts/local/aws.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import type { LambdaHandler } from '../../shared/http/handler.ts';
import type { RouteRow } from '../../shared/routing/route.ts';
import { apiEvent } from '../support/events.ts';

/**
 * The local platform refuses what AWS would: a handler runs with its function's own environment
 * and IAM policy (derived from its route row, as the stack derives them), so code that calls
 * beyond its row's grant fails here as it would when deployed.
 */
const rowOf = (key: string): RouteRow => routesByKey.get(key)!;
const handlerOf = async (row: RouteRow) =>
  (
    (await import(
      pathToFileURL(resolve(import.meta.dirname, '../../functions', `${row.handler}.ts`)).href
    )) as {
      handler: LambdaHandler;
    }
  ).handler;
/**
 * A function context under a probe name: the calls these tests provoke on purpose are recorded
 * under it, so they do not count against the real route in the least-privilege check.
 */
const contextOf = (row: RouteRow) => ({ ...functionContextOf(row), routeKey: `PROBE ${row.path}` });

describe('the local IAM guard', () => {
  it('fails a route whose code calls beyond its grant (GetItem removed from GET /creators/{id})', async () => {
    const row = rowOf('GET /creators/{id}');
    const handler = await handlerOf(row);
    const event = () =>
      apiEvent({ route: 'GET /creators/{id}', path: '/creators/cr_0001', pathParameters: { id: 'cr_0001' } });
    const granted = await runAsFunction(contextOf(row), () => handler(event()));
    expect(granted.statusCode).toBe(200);

    const narrowed: RouteRow = {
      ...row,
      dynamo: { ...row.dynamo!, actions: row.dynamo!.actions.filter((a) => a !== 'GetItem') },
    };
    const refused = await runAsFunction(contextOf(narrowed), () => handler(event()));
    expect(refused.statusCode).toBe(500);
  });

  it('refuses an action on a resource the policy does not name: the table, an index not granted', async () => {
    const row = rowOf('GET /creators/{id}'); // GetItem, BatchGetItem; Query on GSI1 only
    expect(row.dynamo?.indexes).toEqual(['GSI1']);
    const context = contextOf(row);
    const get = () => db.send(new GetCommand({ TableName: tableName(), Key: creatorKey('cr_0001') }));
    const query = (IndexName: string) =>
      db.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName,
          KeyConditionExpression: `${IndexName}PK = :pk`,
          ExpressionAttributeValues: { ':pk': 'nothing' },
          Limit: 1,
        }),
      );
    await expect(runAsFunction(context, get)).resolves.toBeDefined();
    await expect(runAsFunction(context, () => query('GSI1'))).resolves.toBeDefined();
    await expect(runAsFunction(context, () => query('GSI2'))).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining(
        'dynamodb:Query on resource: arn:aws:dynamodb:local:000000000000:table/',
      ),
    });
    const other = {
      ...context,
      policy: context.policy.map((s) => ({
        ...s,
        resources: ['arn:aws:dynamodb:local:000000000000:table/other'],
      })),
    };
    await expect(runAsFunction(other, get)).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('refuses KMS and Firehose calls to functions whose row does not need them', async () => {
    const { signJwt } = await import('../../shared/identity/access-token.ts');
    const { getSink } = await import('../../shared/analytics/sink.ts');
    const publicRow = rowOf('GET /creators/{id}');
    // Outside any function (test set-up, like an operator) both work.
    await expect(signJwt({ sub: 'x' })).resolves.toMatch(/\./);
    // A reading function has no kms:Sign, and no ANALYTICS_STREAM_NAME at all.
    await expect(runAsFunction(contextOf(publicRow), () => signJwt({ sub: 'x' }))).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('kms:Sign'),
    });
    // Given the stream's name but not the grant, its put is refused (and not retried: AccessDenied is final).
    const reader = contextOf(publicRow);
    const named = {
      ...reader,
      env: { ...reader.env, ANALYTICS_STREAM_NAME: 'creator-streaming-local-analytics' },
    };
    const record = {
      event_id: 'e1',
      family: 'video' as const,
      type: 'heartbeat',
      session_id: 's1',
      received_at: new Date().toISOString(),
      received_at_ms: Date.now(),
      client_ts_ms: Date.now(),
    };
    await expect(runAsFunction(named, async () => (await getSink()).put([record]))).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('firehose:PutRecordBatch'),
    });
  });
});

describe("each function's own environment", () => {
  it('gives TABLE_NAME only to rows with DynamoDB access, and a missing setting throws instead of defaulting', async () => {
    // A static list: no DynamoDB access (the analytics routes now count per-account limits in the table).
    const sink = rowOf('POST /analytics/video/events');
    const tableless = rowOf('GET /onboarding/categories');
    const reader = rowOf('GET /creators/{id}');
    expect(await runAsFunction(contextOf(tableless), async () => process.env.TABLE_NAME)).toBeUndefined();
    expect(await runAsFunction(contextOf(reader), async () => process.env.TABLE_NAME)).toBe(tableName());
    await expect(runAsFunction(contextOf(tableless), async () => tableName())).rejects.toThrow(
      /Setting TABLE_NAME is missing/,
    );
    expect(
      await runAsFunction(contextOf(reader), async () => process.env.ANALYTICS_STREAM_NAME),
    ).toBeUndefined();
    expect(await runAsFunction(contextOf(sink), async () => process.env.ROUTE_KEY)).toBe(
      'POST /analytics/video/events',
    );
  });

  it('fails a function at init (module load) when its environment lacks a setting its row needs', async () => {
    const row = rowOf('GET /shows/{id}');
    const context = contextOf(row);
    const { TABLE_NAME: _dropped, ...env } = context.env;
    await expect(runAsFunction({ ...context, env }, () => handlerOf(row))).rejects.toThrow(
      /GET \/shows\/\{id\} is missing settings its row needs: TABLE_NAME/,
    );
  });

  it('serves the JWKS from KMS through its own function, which may only read the public key', async () => {
    const { testApi } = await import('../support/api.ts');
    const api = await testApi();
    const jwks = await api.get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256' })]);
    expect(jwks.body.keys[0]).not.toHaveProperty('d');
  });
});
