import {
  CreateChannelCommand,
  CreateRecordingConfigurationCommand,
  IvsClient,
  ListChannelsCommand,
  ListStreamKeysCommand,
} from '@aws-sdk/client-ivs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, type CleanupEvent } from '../../infra/handlers/runtime-cleanup.ts';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { localIvsClientConfig } from '../local-ivs/playback-token.ts';

/** The teardown's cleaner against the IVS stand-in, driven by the real @aws-sdk/client-ivs. */
let ivs: IvsStandIn;
let client: IvsClient;
beforeAll(async () => {
  ivs = await startIvsStandIn({ throttle: false });
  client = new IvsClient({ ...localIvsClientConfig(ivs.endpoint), maxAttempts: 1 });
});
afterAll(async () => {
  client.destroy();
  await ivs.stop();
});

const recordingConfiguration = async (name: string) =>
  (
    await client.send(
      new CreateRecordingConfigurationCommand({
        name,
        destinationConfiguration: { s3: { bucketName: 'recordings' } },
      }),
    )
  ).recordingConfiguration!.arn!;
const channel = async (name: string, configurationArn: string, tags: Record<string, string>) =>
  (
    await client.send(
      new CreateChannelCommand({ name, recordingConfigurationArn: configurationArn, tags, authorized: true }),
    )
  ).channel!.arn!;
const event = (requestType: CleanupEvent['RequestType'], configurationArn: string): CleanupEvent => ({
  RequestType: requestType,
  ResourceType: 'Custom::RuntimeCleanup',
  ResponseURL: 'http://127.0.0.1:1/unused',
  StackId: 'stack',
  RequestId: 'request',
  LogicalResourceId: 'RuntimeCleanup',
  PhysicalResourceId: 'runtime-cleanup-1',
  ResourceProperties: { RecordingConfigurationArn: configurationArn, Stage: 'dev' },
});

describe('Custom::RuntimeCleanup', () => {
  it("on Delete removes the stage's channels on the stack's recording configuration, with their stream keys", async () => {
    const ours = await recordingConfiguration('ours');
    const another = await recordingConfiguration('another-stack');
    const tagged = await channel('cr_1', ours, { creator_id: 'cr_1', stage: 'dev' });
    const second = await channel('cr_2', ours, { creator_id: 'cr_2', stage: 'dev' });
    // Every channel comes with its stream key (CreateChannel makes it).
    expect((await client.send(new ListStreamKeysCommand({ channelArn: second }))).streamKeys).toHaveLength(1);
    const untagged = await channel('cr_3', ours, { creator_id: 'cr_3' });
    const otherStage = await channel('cr_4', ours, { stage: 'prod' });
    const otherStack = await channel('cr_5', another, { stage: 'dev' });

    // Create and Update change nothing.
    expect((await apply({ ivs: client }, event('Create', ours))).data).toEqual({});
    expect((await apply({ ivs: client }, event('Update', ours))).data).toEqual({});

    const removed = await apply({ ivs: client }, event('Delete', ours));
    expect(removed).toEqual({ physicalId: 'runtime-cleanup-1', data: { channels: '3' } });
    const left = (await client.send(new ListChannelsCommand({}))).channels!.map((c) => c.arn);
    for (const arn of [tagged, second, untagged]) expect(left).not.toContain(arn);
    expect(left).toEqual(expect.arrayContaining([otherStage, otherStack]));
    expect(
      (await client.send(new ListStreamKeysCommand({ channelArn: otherStack }))).streamKeys,
    ).toHaveLength(1);
    expect([...ivs.state.streamKeys.values()].filter((k) => k.channelArn === second)).toEqual([]);
    // A second Delete (CloudFormation retries) finds nothing more to do.
    expect((await apply({ ivs: client }, event('Delete', ours))).data).toEqual({ channels: '0' });
  });
});
