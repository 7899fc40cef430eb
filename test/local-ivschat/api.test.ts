import {
  ConflictException,
  CreateChatTokenCommand,
  CreateLoggingConfigurationCommand,
  CreateRoomCommand,
  DeleteLoggingConfigurationCommand,
  DeleteMessageCommand,
  DeleteRoomCommand,
  DisconnectUserCommand,
  GetLoggingConfigurationCommand,
  GetRoomCommand,
  IvschatClient,
  ListLoggingConfigurationsCommand,
  ListRoomsCommand,
  ResourceNotFoundException,
  SendEventCommand,
  UpdateRoomCommand,
  ValidationException,
} from '@aws-sdk/client-ivschat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IvsChatStandIn, startIvsChatStandIn } from '../../scripts/local/ivschat/server.ts';

/**
 * The IVS Chat control-plane stand-in, driven by the real @aws-sdk/client-ivschat: if the SDK
 * serialises our requests and parses our answers and errors, the platform's chat code can too.
 */
let chat: IvsChatStandIn;
let client: IvschatClient;
beforeAll(async () => {
  chat = await startIvsChatStandIn();
  client = new IvschatClient({
    endpoint: chat.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client.destroy();
  await chat.stop();
});

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

const REVIEW = 'arn:aws:lambda:us-east-1:000000000000:function:chat-review';

describe('rooms', () => {
  it('creates a room with IVS Chat defaults, an ARN and the review handler, and reads it back', async () => {
    const created = await client.send(
      new CreateRoomCommand({
        name: 'creator-cr_0001',
        messageReviewHandler: { uri: REVIEW, fallbackResult: 'DENY' },
        tags: { creator: 'cr_0001' },
      }),
    );
    expect(created.arn).toMatch(/^arn:aws:ivschat:us-east-1:000000000000:room\/[a-zA-Z0-9]{12}$/);
    expect(created.arn?.endsWith(`/${created.id}`)).toBe(true);
    expect(created).toMatchObject({
      name: 'creator-cr_0001',
      maximumMessageRatePerSecond: 10,
      maximumMessageLength: 500,
      messageReviewHandler: { uri: REVIEW, fallbackResult: 'DENY' },
      tags: { creator: 'cr_0001' },
      loggingConfigurationIdentifiers: [],
    });
    expect(created.createTime).toBeInstanceOf(Date);

    const got = await client.send(new GetRoomCommand({ identifier: created.arn }));
    expect(got).toMatchObject({ arn: created.arn, maximumMessageLength: 500 });

    const updated = await client.send(
      new UpdateRoomCommand({
        identifier: created.arn,
        maximumMessageRatePerSecond: 2,
        maximumMessageLength: 80,
      }),
    );
    expect(updated).toMatchObject({
      maximumMessageRatePerSecond: 2,
      maximumMessageLength: 80,
      name: 'creator-cr_0001',
    });

    const listed = await client.send(new ListRoomsCommand({ messageReviewHandlerUri: REVIEW }));
    expect(listed.rooms?.map((r) => r.arn)).toContain(created.arn);

    await client.send(new DeleteRoomCommand({ identifier: created.arn }));
    const gone = await rejection(client.send(new GetRoomCommand({ identifier: created.arn })));
    expect(gone).toBeInstanceOf(ResourceNotFoundException);
    expect(gone).toMatchObject({ resourceId: created.arn, resourceType: 'ROOM' });
  });

  it('refuses what IVS Chat refuses, with ValidationException and the field', async () => {
    for (const input of [
      { maximumMessageLength: 501 },
      { maximumMessageRatePerSecond: 0 },
      { name: 'has spaces' },
      { messageReviewHandler: { uri: 'https://example.com/review' } },
    ]) {
      const error = await rejection(client.send(new CreateRoomCommand(input)));
      expect(error, JSON.stringify(input)).toBeInstanceOf(ValidationException);
      expect((error as ValidationException).fieldList?.[0]?.name?.split('.')[0]).toBe(Object.keys(input)[0]);
    }
    const notArn = await rejection(client.send(new GetRoomCommand({ identifier: 'room-1' })));
    expect(notArn).toBeInstanceOf(ValidationException);
  });

  it('names a missing room in ResourceNotFoundException for every operation on it', async () => {
    const roomIdentifier = 'arn:aws:ivschat:us-east-1:000000000000:room/AbCdEfGhIjKl';
    for (const command of [
      new CreateChatTokenCommand({ roomIdentifier, userId: 'ac_1' }),
      new SendEventCommand({ roomIdentifier, eventName: 'x' }),
      new DeleteMessageCommand({ roomIdentifier, id: 'AbCdEfGhIjKl' }),
      new DisconnectUserCommand({ roomIdentifier, userId: 'ac_1' }),
    ]) {
      const error = await rejection(client.send(command as never));
      expect(error).toBeInstanceOf(ResourceNotFoundException);
    }
  });
});

describe('chat tokens', () => {
  it('issues a token with its expiry times and refuses unknown capabilities and oversized attributes', async () => {
    const room = await client.send(new CreateRoomCommand({}));
    const before = Date.now();
    const token = await client.send(
      new CreateChatTokenCommand({
        roomIdentifier: room.arn,
        userId: 'ac_0001',
        capabilities: ['SEND_MESSAGE'],
        sessionDurationInMinutes: 30,
        attributes: { display_name: 'Maya' },
      }),
    );
    expect(token.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(token.sessionExpirationTime!.getTime()).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
    expect(token.sessionExpirationTime!.getTime()).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);
    expect(token.tokenExpirationTime!.getTime()).toBeGreaterThan(before);

    for (const input of [
      { capabilities: ['BAN_USER' as never] },
      { sessionDurationInMinutes: 181 },
      { attributes: { bio: 'x'.repeat(1100) } },
    ]) {
      const error = await rejection(
        client.send(new CreateChatTokenCommand({ roomIdentifier: room.arn, userId: 'ac_0001', ...input })),
      );
      expect(error, JSON.stringify(input)).toBeInstanceOf(ValidationException);
    }
  });
});

describe('logging configurations', () => {
  it('creates one per destination, attaches it to a room and refuses deleting it while attached', async () => {
    const config = await client.send(
      new CreateLoggingConfigurationCommand({
        name: 'chat-logs',
        destinationConfiguration: { firehose: { deliveryStreamName: 'analytics' } },
      }),
    );
    expect(config.arn).toMatch(
      /^arn:aws:ivschat:us-east-1:000000000000:logging-configuration\/[a-zA-Z0-9]{12}$/,
    );
    expect(config.state).toBe('ACTIVE');
    const two = await rejection(
      client.send(
        new CreateLoggingConfigurationCommand({
          destinationConfiguration: {
            firehose: { deliveryStreamName: 'a' },
            s3: { bucketName: 'bucket' },
          } as never,
        }),
      ),
    );
    expect(two).toBeInstanceOf(ValidationException);

    const room = await client.send(new CreateRoomCommand({ loggingConfigurationIdentifiers: [config.arn!] }));
    expect(room.loggingConfigurationIdentifiers).toEqual([config.arn]);
    const missing = await rejection(
      client.send(
        new CreateRoomCommand({
          loggingConfigurationIdentifiers: [
            'arn:aws:ivschat:us-east-1:000000000000:logging-configuration/AbCdEfGhIjKl',
          ],
        }),
      ),
    );
    expect(missing).toBeInstanceOf(ResourceNotFoundException);

    const inUse = await rejection(
      client.send(new DeleteLoggingConfigurationCommand({ identifier: config.arn })),
    );
    expect(inUse).toBeInstanceOf(ConflictException);
    await client.send(new DeleteRoomCommand({ identifier: room.arn }));
    await client.send(new DeleteLoggingConfigurationCommand({ identifier: config.arn }));
    expect(
      await rejection(client.send(new GetLoggingConfigurationCommand({ identifier: config.arn }))),
    ).toBeInstanceOf(ResourceNotFoundException);
    const listed = await client.send(new ListLoggingConfigurationsCommand({}));
    expect(listed.loggingConfigurations?.map((c) => c.arn)).not.toContain(config.arn);
  });
});
