import {
  DeleteChannelCommand,
  DeleteStreamKeyCommand,
  IvsClient,
  ListChannelsCommand,
  ListStreamKeysCommand,
  StopStreamCommand,
} from '@aws-sdk/client-ivs';
import { DeleteRoomCommand, IvschatClient, ListRoomsCommand } from '@aws-sdk/client-ivschat';
import { type CloudFormationEvent, respond } from './cloudformation.ts';

/**
 * `Custom::RuntimeCleanup` (infra/runtime-cleanup.ts): what the API made at run time and the
 * stack cannot delete by itself, removed when the stack (or the resource) is deleted. Create and
 * Update change nothing. The template orders it after the IVS recording configuration
 * (DependsOn), so CloudFormation deletes it first: by the time the recording configuration goes,
 * no channel refers to it any more (IVS refuses to delete a configuration in use).
 *
 * One cleaner per kind of run-time resource, run in order; each answers how many it removed.
 * Today: IVS channels (with their stream keys) and IVS Chat rooms. Provider webhook endpoints add
 * a cleaner, and a property naming what finds them.
 */
export interface CleanupProperties {
  /** The stack's recording configuration: every channel the API makes names it. */
  RecordingConfigurationArn: string;
  /**
   * The stack's chat logging configuration: every room the API makes names it
   * (shared/chat/rooms.ts), and it is deleted after the rooms (infra/chat.ts `ChatLogs`).
   */
  ChatLoggingConfigurationArn?: string;
  /** The stage the API tags its channels and rooms with (`stage`, shared/studio/channel-writes.ts). */
  Stage: string;
}

export type CleanupEvent = CloudFormationEvent<CleanupProperties>;

export interface CleanupClients {
  ivs: Pick<IvsClient, 'send'>;
  ivschat: Pick<IvschatClient, 'send'>;
}

/** The tag the API puts on every channel it makes, valued with its stage. */
export const STAGE_TAG = 'stage';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const named = (error: unknown, name: string) => (error as { name?: string }).name === name;

/**
 * Deletes one channel: its broadcast stopped (IVS refuses to delete a live channel), its stream
 * keys, then the channel, retried while IVS still reports it live (the stream ends within seconds
 * of StopStream).
 */
const removeChannel = async (ivs: CleanupClients['ivs'], arn: string, pauseMs: number): Promise<void> => {
  try {
    await ivs.send(new StopStreamCommand({ channelArn: arn }));
  } catch (error) {
    if (!named(error, 'ChannelNotBroadcasting') && !named(error, 'ResourceNotFoundException')) throw error;
  }
  let nextToken: string | undefined;
  do {
    const page = await ivs.send(new ListStreamKeysCommand({ channelArn: arn, nextToken }));
    for (const key of page.streamKeys ?? [])
      if (key.arn) await ivs.send(new DeleteStreamKeyCommand({ arn: key.arn }));
    nextToken = page.nextToken;
  } while (nextToken);
  for (let attempt = 1; ; attempt++) {
    try {
      await ivs.send(new DeleteChannelCommand({ arn }));
      return;
    } catch (error) {
      if (named(error, 'ResourceNotFoundException')) return;
      if (!named(error, 'ConflictException') || attempt >= 12) throw error;
      await sleep(pauseMs);
    }
  }
};

/**
 * The stage's IVS channels: those naming the stack's recording configuration (IVS filters on it)
 * and tagged with the stage, or with no stage tag (channels made before the tag existed: they
 * name this stack's configuration, so only this stack made them). A channel tagged with another
 * stage is left alone and reported: it would keep the configuration from being deleted.
 */
export const removeChannels = async (
  clients: CleanupClients,
  props: CleanupProperties,
  options: { pauseMs?: number; warn?: (message: string, fields: Record<string, unknown>) => void } = {},
): Promise<number> => {
  const arns: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await clients.ivs.send(
      new ListChannelsCommand({
        filterByRecordingConfigurationArn: props.RecordingConfigurationArn,
        maxResults: 100,
        nextToken,
      }),
    );
    for (const channel of page.channels ?? []) {
      if (!channel.arn) continue;
      const stage = channel.tags?.[STAGE_TAG];
      if (stage === undefined || stage === props.Stage) arns.push(channel.arn);
      else
        options.warn?.('channel of another stage on this recording configuration: left', {
          arn: channel.arn,
          stage,
        });
    }
    nextToken = page.nextToken;
  } while (nextToken);
  // One at a time: IVS allows 5 channel and stream-key operations a second.
  for (const arn of arns) await removeChannel(clients.ivs, arn, options.pauseMs ?? 5_000);
  return arns.length;
};

/**
 * The stage's IVS Chat rooms: those naming the stack's chat logging configuration (IVS Chat
 * filters on it) and tagged with the stage or untagged, as for channels; deleted one at a time
 * (IVS Chat allows 5 DeleteRoom a second; the client retries throttling). Deleting a room ends
 * its connections. Without the property (a stack from before chat), nothing.
 */
export const removeRooms = async (
  clients: CleanupClients,
  props: CleanupProperties,
  options: { warn?: (message: string, fields: Record<string, unknown>) => void } = {},
): Promise<number> => {
  const loggingConfigurationIdentifier = props.ChatLoggingConfigurationArn;
  if (!loggingConfigurationIdentifier) return 0;
  const arns: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await clients.ivschat.send(
      new ListRoomsCommand({ loggingConfigurationIdentifier, maxResults: 50, nextToken }),
    );
    for (const room of page.rooms ?? []) {
      if (!room.arn) continue;
      const stage = room.tags?.[STAGE_TAG];
      if (stage === undefined || stage === props.Stage) arns.push(room.arn);
      else
        options.warn?.('room of another stage on this logging configuration: left', { arn: room.arn, stage });
    }
    nextToken = page.nextToken;
  } while (nextToken);
  for (const identifier of arns) {
    try {
      await clients.ivschat.send(new DeleteRoomCommand({ identifier }));
    } catch (error) {
      if (!named(error, 'ResourceNotFoundException')) throw error;
    }
  }
  return arns.length;
};

/** Every cleaner, in order (webhook endpoints join here). */
export const CLEANERS = { channels: removeChannels, rooms: removeRooms } as const;

/** Applies an event: on Delete, every cleaner; answers what each removed. */
export const apply = async (
  clients: CleanupClients,
  event: CleanupEvent,
): Promise<{ physicalId: string; data: Record<string, string> }> => {
  const physicalId = event.PhysicalResourceId ?? `runtime-cleanup-${event.RequestId}`;
  if (event.RequestType !== 'Delete') return { physicalId, data: {} };
  const warn = (message: string, fields: Record<string, unknown>) =>
    console.warn(JSON.stringify({ level: 'WARN', message, ...fields }));
  const data: Record<string, string> = {};
  for (const [name, clean] of Object.entries(CLEANERS))
    data[name] = String(await clean(clients, event.ResourceProperties, { warn }));
  console.log(JSON.stringify({ level: 'INFO', message: 'runtime resources removed', ...data }));
  return { physicalId, data };
};

let clients: CleanupClients | undefined;

export const handler = async (event: CleanupEvent): Promise<void> => {
  clients ??= {
    ivs: new IvsClient({ maxAttempts: 8, retryMode: 'standard' }),
    ivschat: new IvschatClient({ maxAttempts: 8, retryMode: 'standard' }),
  };
  try {
    await respond(event, await apply(clients, event));
  } catch (error) {
    const { name, message } = error as Error;
    console.error(JSON.stringify({ level: 'ERROR', message: 'runtime cleanup', error: { name, message } }));
    // The stack's deletion stops here (and can be retried) rather than at the recording
    // configuration, with this reason in the stack's events.
    await respond(event, {
      physicalId: event.PhysicalResourceId ?? event.RequestId,
      error: `Run-time resources not removed: ${name}: ${message}`,
    });
  }
};
