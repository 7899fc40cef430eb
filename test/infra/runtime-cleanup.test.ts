import {
  CreateChannelCommand,
  CreateRecordingConfigurationCommand,
  IvsClient,
  ListChannelsCommand,
  ListStreamKeysCommand,
} from '@aws-sdk/client-ivs';
import {
  CreateChatTokenCommand,
  CreateLoggingConfigurationCommand,
  CreateRoomCommand,
  IvschatClient,
  ListRoomsCommand,
} from '@aws-sdk/client-ivschat';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, type CleanupClients, type CleanupEvent } from '../../infra/handlers/runtime-cleanup.ts';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { type IvsChatStandIn, startIvsChatStandIn } from '../../scripts/local/ivschat/server.ts';
import { localIvsClientConfig } from '../local-ivs/playback-token.ts';

/**
 * The teardown's cleaners against the IVS and IVS Chat stand-ins, driven by the real
 * @aws-sdk/client-ivs and @aws-sdk/client-ivschat.
 */
let ivs: IvsStandIn;
let client: IvsClient;
let chat: IvsChatStandIn;
let chatClient: IvschatClient;
let clients: CleanupClients;
beforeAll(async () => {
  ivs = await startIvsStandIn({ throttle: false });
  client = new IvsClient({ ...localIvsClientConfig(ivs.endpoint), maxAttempts: 1 });
  chat = await startIvsChatStandIn();
  chatClient = new IvschatClient({
    endpoint: chat.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  clients = { ivs: client, ivschat: chatClient };
});
afterAll(async () => {
  client.destroy();
  chatClient.destroy();
  await ivs.stop();
  await chat.stop();
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
const event = (
  requestType: CleanupEvent['RequestType'],
  configurationArn: string,
  chatLoggingConfigurationArn?: string,
): CleanupEvent => ({
  RequestType: requestType,
  ResourceType: 'Custom::RuntimeCleanup',
  ResponseURL: 'http://127.0.0.1:1/unused',
  StackId: 'stack',
  RequestId: 'request',
  LogicalResourceId: 'RuntimeCleanup',
  PhysicalResourceId: 'runtime-cleanup-1',
  ResourceProperties: {
    RecordingConfigurationArn: configurationArn,
    ...(chatLoggingConfigurationArn ? { ChatLoggingConfigurationArn: chatLoggingConfigurationArn } : {}),
    Stage: 'dev',
  },
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
    expect((await apply(clients, event('Create', ours))).data).toEqual({});
    expect((await apply(clients, event('Update', ours))).data).toEqual({});

    const removed = await apply(clients, event('Delete', ours));
    expect(removed).toEqual({ physicalId: 'runtime-cleanup-1', data: { channels: '3', rooms: '0' } });
    const left = (await client.send(new ListChannelsCommand({}))).channels!.map((c) => c.arn);
    for (const arn of [tagged, second, untagged]) expect(left).not.toContain(arn);
    expect(left).toEqual(expect.arrayContaining([otherStage, otherStack]));
    expect(
      (await client.send(new ListStreamKeysCommand({ channelArn: otherStack }))).streamKeys,
    ).toHaveLength(1);
    expect([...ivs.state.streamKeys.values()].filter((k) => k.channelArn === second)).toEqual([]);
    // A second Delete (CloudFormation retries) finds nothing more to do.
    expect((await apply(clients, event('Delete', ours))).data).toEqual({ channels: '0', rooms: '0' });
  });

  it("on Delete removes the stage's chat rooms on the stack's logging configuration, and their connections end", async () => {
    const configuration = async (name: string) =>
      (
        await chatClient.send(
          new CreateLoggingConfigurationCommand({
            name,
            destinationConfiguration: { s3: { bucketName: 'chat-logs' } },
          }),
        )
      ).arn!;
    const ours = await configuration('ours');
    const another = await configuration('another-stack');
    const room = async (loggingConfiguration: string, tags: Record<string, string>) =>
      (
        await chatClient.send(
          new CreateRoomCommand({ name: 'r', loggingConfigurationIdentifiers: [loggingConfiguration], tags }),
        )
      ).arn!;
    const tagged = await room(ours, { creator_id: 'cr_1', stage: 'dev' });
    const untagged = await room(ours, { creator_id: 'cr_2' });
    const otherStage = await room(ours, { stage: 'prod' });
    const otherStack = await room(another, { stage: 'dev' });
    // A viewer is in the tagged room when the stack goes.
    const { token } = await chatClient.send(
      new CreateChatTokenCommand({ roomIdentifier: tagged, userId: 'viewer' }),
    );
    const socket = new WebSocket(chat.messagingEndpoint, token!);
    await new Promise((opened) => socket.once('open', opened));
    const closed = new Promise((done) => socket.once('close', done));
    const recording = await recordingConfiguration('rooms-test');

    // Create and Update change nothing.
    expect((await apply(clients, event('Create', recording, ours))).data).toEqual({});
    const removed = await apply(clients, event('Delete', recording, ours));
    expect(removed.data).toEqual({ channels: '0', rooms: '2' });
    await closed;
    const left = (await chatClient.send(new ListRoomsCommand({}))).rooms!.map((r) => r.arn);
    for (const arn of [tagged, untagged]) expect(left).not.toContain(arn);
    expect(left).toEqual(expect.arrayContaining([otherStage, otherStack]));
    // CloudFormation retries a Delete: nothing more to do. A stack from before chat names no
    // logging configuration: its rooms cleaner does nothing.
    expect((await apply(clients, event('Delete', recording, ours))).data).toEqual({
      channels: '0',
      rooms: '0',
    });
    expect((await apply(clients, event('Delete', recording))).data).toEqual({ channels: '0', rooms: '0' });
  });
});
