import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildRow } from '../../functions/workers.ts';
import { functionContext, localDeployment, runAsFunction } from '../../scripts/local/aws.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { catalogItems } from '../../scripts/seed/load.ts';
import { batchPut } from '../../shared/db/batch.ts';
import { createTable } from '../../shared/db/create-table.ts';
import { keyString, primaryKey } from '../../shared/db/key.ts';
import { policyOf } from '../../shared/platform/access.ts';
import type { RebuildReport } from '../../shared/projection/rebuild.ts';
import { rebuildTestDeployment } from '../support/stack-functions.ts';

/**
 * The operator's rebuild run as its function (functions/projector/rebuild-views.ts: its
 * environment and its IAM statements under the local guard, its requests recorded for the
 * least-privilege report), on a table of its own (`<table>-rebuild`, test/support/stack-functions.ts
 * `rebuildTestDeployment`): it rewrites every view of the table it runs on, and the shared table's
 * views are what the other files read. A small demo catalogue is seeded, then drifted in each way
 * the rebuild repairs: views missing, different and left over (BatchWriteItem), a program without
 * its guide index keys, show profiles with a wrong episode tally, with none, and with the GSI1 sort
 * key written before `PROFILE#<id>` (UpdateItem, after a strongly consistent Query of the show's
 * item collection). A grant the rebuild lacks fails it here (AccessDeniedException) and the run's
 * least-privilege teardown; a grant it no longer uses shows there as unused after a complete run.
 */

// Before anything derives the function's context (scripts/local/aws.ts localDeployment reads
// TABLE_NAME from here) or writes (shared/db/table.ts): this file's table.
const shared = localDeployment();
const TABLE = rebuildTestDeployment(shared).tableName;
process.env.TABLE_NAME = TABLE;

const ADMIN = new DynamoDBClient({
  endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
/** The test's own reads and drift, as an operator with admin credentials (no function's guard). */
const admin = DynamoDBDocumentClient.from(ADMIN);

type Item = Record<string, unknown>;

/** Every item of the table, in key order. */
const scanAll = async (): Promise<Item[]> => {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await admin.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort((a, b) => (keyString(a) < keyString(b) ? -1 : 1));
};

const context = functionContext(rebuildRow);
/** One invocation of the rebuild function, as `aws lambda invoke` makes it (its module loaded in its own environment). */
const invokeRebuild = (payload: { dryRun?: boolean }): Promise<RebuildReport> =>
  runAsFunction(context, async () => {
    const { handler } = await import('../../functions/projector/rebuild-views.ts');
    return handler(payload);
  });

const counts = (report: RebuildReport) => ({
  put: report.put,
  deleted: report.deleted,
  guideKeys: report.guideKeys,
  showProfiles: report.showProfiles,
  earningMonths: report.earningMonths,
});

let clean: Item[];
const EARNING_MONTH = { PK: 'CREATOR#cr_earner', SK: 'EARNINGS_MONTH#2026-11#usd' };

beforeAll(async () => {
  // No stream: nothing projects this table's changes (the rebuild is what writes its views).
  await createTable(ADMIN, TABLE, { stream: false });
  // Seed 42 at scale 0.02 (5 creators, 4 shows, 129 episodes), 3 programs of the 361: what the
  // seed loader writes for it, every view included.
  const now = new Date();
  const catalog = generateCatalog({ now, seed: 42, scale: 0.02 });
  await batchPut(catalogItems({ ...catalog, programs: catalog.programs.slice(0, 3) }, now));
  // A creator's earning and its month's totals (shared/payments/payout-repository.ts).
  const amounts = { currency: 'usd', gross: 499, platform_fee: 50, net: 449 };
  await batchPut([
    {
      PK: 'CREATOR#cr_earner',
      SK: 'EARNING#in_1',
      entity: 'earning',
      creator_id: 'cr_earner',
      source_id: 'in_1',
      kind: 'subscription',
      paid_at: '2026-11-02T10:00:00.000Z',
      ...amounts,
    },
    {
      ...EARNING_MONTH,
      entity: 'earning_month',
      creator_id: 'cr_earner',
      month: '2026-11',
      version: 1,
      ...amounts,
    },
  ]);
  clean = await scanAll();
}, 120_000);

afterAll(async () => {
  await ADMIN.send(new DeleteTableCommand({ TableName: TABLE })).catch(() => undefined);
});

describe('the rebuild function, on a table of its own, under its own grants', () => {
  it('runs with the environment and statements of its row, for this table (what the least-privilege report compares)', () => {
    expect(context.routeKey).toBe('$operator/rebuild-views');
    expect(context.env.TABLE_NAME).toBe(TABLE);
    expect(context.policy).toEqual(policyOf(rebuildRow, rebuildTestDeployment(shared)));
    expect(context.policy.flatMap((s) => s.resources)).toEqual([`${shared.tableArn}-rebuild`]);
  });

  it('reports the drift in a dry run and changes nothing; repairs it; then finds nothing to repair', async () => {
    // The seeded table is what a rebuild would write.
    expect(counts(await invokeRebuild({ dryRun: true }))).toEqual({
      put: 0,
      deleted: 0,
      guideKeys: 0,
      showProfiles: 0,
      earningMonths: 0,
    });

    const [wrongTally, legacyKey, noTally] = clean.filter((item) => item.entity === 'show');
    const program = clean.find((item) => item.entity === 'program');
    const entries = clean.filter(
      (item) => String(item.PK).startsWith('RANK#') && String(item.SK).startsWith('E#'),
    );
    const [missing, different, strayOf] = entries;
    expect([wrongTally, legacyKey, noTally, program, missing, different, strayOf]).not.toContain(undefined);
    const update = (item: Item, expression: string, values?: Item) =>
      admin.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: primaryKey(item),
          UpdateExpression: expression,
          ...(values ? { ExpressionAttributeValues: values } : {}),
        }),
      );
    // Show profiles: a tally one episode off, a GSI1 sort key of before `PROFILE#<id>`, no tally.
    await update(wrongTally!, 'SET episode_tally.episodes = episode_tally.episodes + :one', { ':one': 1 });
    await update(legacyKey!, 'SET GSI1SK = :legacy', { ':legacy': `SHOW#${String(legacyKey!.id)}#PROFILE` });
    await update(noTally!, 'REMOVE episode_tally');
    // A program written before the guide index.
    await update(program!, 'REMOVE GSI2PK, GSI2SK');
    // Views: an entry missing, one naming another show, one no source calls for.
    await admin.send(new DeleteCommand({ TableName: TABLE, Key: primaryKey(missing!) }));
    await update(different!, 'SET id = :other', { ':other': 'sh_drifted' });
    await admin.send(
      new PutCommand({ TableName: TABLE, Item: { ...strayOf!, SK: 'E#~stray', id: 'sh_gone' } }),
    );
    // Earnings recorded before the monthly totals existed.
    await admin.send(new DeleteCommand({ TableName: TABLE, Key: EARNING_MONTH }));
    const drifted = await scanAll();
    expect(drifted).not.toEqual(clean);

    const dry = await invokeRebuild({ dryRun: true });
    expect(counts(dry)).toEqual({ put: 2, deleted: 1, guideKeys: 1, showProfiles: 3, earningMonths: 1 });
    expect(dry.dryRun).toBe(true);
    expect(new Set(dry.examples)).toEqual(
      new Set([missing!, different!, { PK: strayOf!.PK, SK: 'E#~stray' }].map(keyString)),
    );
    expect(await scanAll()).toEqual(drifted);

    const repaired = await invokeRebuild({});
    expect(counts(repaired)).toEqual({ put: 2, deleted: 1, guideKeys: 1, showProfiles: 3, earningMonths: 1 });
    expect(repaired.dryRun).toBe(false);
    // Every item as the seed loader wrote it: tallies from the episodes, the profile's key, the
    // program's guide keys, the views (none of these repairs moves a version), the month's totals.
    expect(await scanAll()).toEqual(clean);

    expect(counts(await invokeRebuild({}))).toEqual({
      put: 0,
      deleted: 0,
      guideKeys: 0,
      showProfiles: 0,
      earningMonths: 0,
    });
  });
});
