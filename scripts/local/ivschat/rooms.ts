import { randomBytes } from 'node:crypto';
import * as z from 'zod';

/**
 * The state and the control plane of the local Amazon IVS Chat stand-in (docs/local-ivschat.md):
 * rooms, logging configurations and chat tokens, kept in memory, with the operations
 * `@aws-sdk/client-ivschat` sends (REST-JSON, `POST /<Operation>`; the three that act on
 * connected clients, DeleteMessage, DisconnectUser and SendEvent, go through `Messaging`, which
 * the WebSocket side implements: ./messaging.ts). Input constraints, defaults, error names and
 * HTTP statuses are the IVS Chat API reference's (checked against the client's schemas).
 */

export const REGION = 'us-east-1';
export const ACCOUNT = '000000000000';
/** `arn:aws:ivschat:us-east-1:000000000000:<resource>/<id>`, as IVS Chat names its resources. */
export const arnOf = (resource: 'room' | 'logging-configuration', id: string): string =>
  `arn:aws:ivschat:${REGION}:${ACCOUNT}:${resource}/${id}`;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A random id of `length` letters and digits: room ids, message and event ids (12, as IVS's). */
export const randomId = (length = 12): string =>
  Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');

export type IvsChatErrorType =
  | 'AccessDeniedException'
  | 'ConflictException'
  | 'InternalServerException'
  | 'ResourceNotFoundException'
  | 'ServiceQuotaExceededException'
  | 'ThrottlingException'
  | 'ValidationException';

/** HTTP statuses from the IVS Chat model (client-ivschat's error schemas). */
export const ERROR_STATUS: Record<IvsChatErrorType, number> = {
  AccessDeniedException: 403,
  ConflictException: 409,
  InternalServerException: 500,
  ResourceNotFoundException: 404,
  ServiceQuotaExceededException: 402,
  ThrottlingException: 429,
  ValidationException: 400,
};

/** An IVS Chat error: its name, message and the model's extra members (resourceId, fieldList...). */
export class IvsChatError extends Error {
  constructor(
    readonly type: IvsChatErrorType,
    message: string,
    readonly members: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const notFound = (resourceType: 'ROOM' | 'LOGGING_CONFIGURATION', id: string) =>
  new IvsChatError(
    'ResourceNotFoundException',
    `${resourceType === 'ROOM' ? 'Room' : 'Logging configuration'} ${id} not found`,
    {
      resourceId: id,
      resourceType,
    },
  );

export type Capability = 'SEND_MESSAGE' | 'DELETE_MESSAGE' | 'DISCONNECT_USER';

export interface MessageReviewHandler {
  /** A Lambda function ARN; '' (or absent) means no review. */
  uri: string;
  fallbackResult: 'ALLOW' | 'DENY';
}

export interface RoomRecord {
  arn: string;
  id: string;
  name: string;
  createTime: Date;
  updateTime: Date;
  maximumMessageRatePerSecond: number;
  maximumMessageLength: number;
  messageReviewHandler?: MessageReviewHandler;
  tags: Record<string, string>;
  loggingConfigurationIdentifiers: string[];
}

export interface LoggingConfigurationRecord {
  arn: string;
  id: string;
  name: string;
  createTime: Date;
  updateTime: Date;
  destinationConfiguration: Record<string, Record<string, string>>;
  tags: Record<string, string>;
}

/** What a chat token grants, kept by the stand-in (the token itself is an opaque handle). */
export interface TokenGrant {
  roomArn: string;
  userId: string;
  capabilities: Capability[];
  attributes: Record<string, string>;
  sessionDurationMs: number;
  tokenExpirationTime: Date;
  /** Set once the token has opened a connection: tokens are single-use. */
  redeemed: boolean;
}

/**
 * How long a token may be used to connect: one minute (IVS Chat's CLI reference for
 * create-chat-token: "The token is valid for one minute, and a connection (session) established
 * with the token is valid for the specified duration"; its example's tokenExpirationTime is a
 * minute after the request, its sessionExpirationTime an hour).
 */
export const TOKEN_VALIDITY_MS = 60 * 1000;

export class IvsChatState {
  readonly rooms = new Map<string, RoomRecord>();
  readonly loggingConfigurations = new Map<string, LoggingConfigurationRecord>();
  readonly tokens = new Map<string, TokenGrant>();

  room(arn: string): RoomRecord {
    const room = this.rooms.get(arn);
    if (!room) throw notFound('ROOM', arn);
    return room;
  }

  loggingConfiguration(arn: string): LoggingConfigurationRecord {
    const config = this.loggingConfigurations.get(arn);
    if (!config) throw notFound('LOGGING_CONFIGURATION', arn);
    return config;
  }
}

/** What the control plane asks of the messaging side (./messaging.ts) for the operations on clients. */
export interface Messaging {
  /** Sends an EVENT to every connection of the room; answers its id. */
  sendEvent(roomArn: string, eventName: string, attributes: Record<string, string>): string;
  /** Sends the `aws:DELETE_MESSAGE` event; answers its id. */
  deleteMessage(roomArn: string, messageId: string, reason?: string): string;
  /** Sends the `aws:DISCONNECT_USER` event and closes every connection of `userId`. */
  disconnectUser(roomArn: string, userId: string, reason?: string): void;
  /** Closes every connection of a deleted room. */
  closeRoom(roomArn: string): void;
}

// --- Input schemas (the IVS Chat API reference's constraints) ---

const arnSchema = (resource: 'room' | 'logging-configuration') =>
  z
    .string()
    .min(1)
    .max(128)
    .regex(
      new RegExp(`^arn:aws:ivschat:[a-z0-9-]+:[0-9]+:${resource}/[a-zA-Z0-9-]+$`),
      `must be a ${resource} ARN`,
    );
const roomArn = arnSchema('room');
const loggingArn = arnSchema('logging-configuration');
const resourceName = z
  .string()
  .max(128)
  .regex(/^[a-zA-Z0-9-_]*$/);
const tags = z.record(z.string().min(1).max(128), z.string().max(256)).default({});
const messageReviewHandler = z.object({
  uri: z
    .string()
    .max(170)
    .regex(/^$|^arn:aws:lambda:[a-z0-9-]+:[0-9]{12}:function:.+/, 'must be a Lambda function ARN')
    .default(''),
  fallbackResult: z.enum(['ALLOW', 'DENY']).default('ALLOW'),
});
const loggingIds = z.array(loggingArn).max(3);
/** The attributes' total length limit (CreateChatToken, SendEvent): 1 KB of UTF-8. */
export const ATTRIBUTES_MAX_BYTES = 1024;
export const attributesBytes = (attributes: Record<string, string>): number =>
  Object.entries(attributes).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
const attributes = z
  .record(z.string(), z.string())
  .default({})
  .refine((a) => attributesBytes(a) <= ATTRIBUTES_MAX_BYTES, 'attributes exceed 1 KB');
const page = {
  nextToken: z.string().max(1024).optional(),
  maxResults: z.number().int().min(1).max(50).default(50),
};
const destinationConfiguration = z
  .object({
    s3: z
      .object({
        bucketName: z
          .string()
          .min(3)
          .max(63)
          .regex(/^[a-z0-9-.]+$/),
      })
      .optional(),
    cloudWatchLogs: z
      .object({
        logGroupName: z
          .string()
          .min(1)
          .max(512)
          .regex(/^[.\-_/#A-Za-z0-9]+$/),
      })
      .optional(),
    firehose: z
      .object({
        deliveryStreamName: z
          .string()
          .min(1)
          .max(64)
          .regex(/^[a-zA-Z0-9_.-]+$/),
      })
      .optional(),
  })
  .refine((d) => Object.values(d).filter(Boolean).length === 1, 'exactly one destination');

const paginate = <T>(items: T[], input: { nextToken?: string; maxResults: number }) => {
  const start =
    input.nextToken === undefined ? 0 : Number(Buffer.from(input.nextToken, 'base64url').toString());
  if (!Number.isInteger(start) || start < 0)
    throw new IvsChatError('ValidationException', 'invalid nextToken');
  const end = start + input.maxResults;
  return {
    items: items.slice(start, end),
    nextToken: end < items.length ? Buffer.from(String(end)).toString('base64url') : undefined,
  };
};

// --- Views: the response shapes of the model (timestamps as date-time strings) ---

const roomView = (room: RoomRecord) => ({
  arn: room.arn,
  id: room.id,
  name: room.name,
  createTime: room.createTime.toISOString(),
  updateTime: room.updateTime.toISOString(),
  maximumMessageRatePerSecond: room.maximumMessageRatePerSecond,
  maximumMessageLength: room.maximumMessageLength,
  ...(room.messageReviewHandler ? { messageReviewHandler: room.messageReviewHandler } : {}),
  tags: room.tags,
  loggingConfigurationIdentifiers: room.loggingConfigurationIdentifiers,
});

const loggingView = (config: LoggingConfigurationRecord) => ({
  arn: config.arn,
  id: config.id,
  name: config.name,
  createTime: config.createTime.toISOString(),
  updateTime: config.updateTime.toISOString(),
  destinationConfiguration: config.destinationConfiguration,
  state: 'ACTIVE',
  tags: config.tags,
});

// --- Operations ---

export interface Context {
  state: IvsChatState;
  messaging: Messaging;
  now: () => number;
}

export interface Operation {
  /** 204 operations (the deletes) answer with an empty body. */
  status: 200 | 204;
  handle(body: unknown, context: Context): unknown;
}

const operation = <S extends z.ZodType>(
  input: S,
  run: (input: z.infer<S>, context: Context) => unknown,
  status: 200 | 204 = 200,
): Operation => ({
  status,
  handle: (body, context) => {
    const parsed = input.safeParse(body);
    if (!parsed.success) {
      const fieldList = parsed.error.issues.map((issue) => ({
        name: issue.path.join('.') || 'input',
        message: issue.message,
      }));
      const first = fieldList[0];
      throw new IvsChatError('ValidationException', `${first?.name}: ${first?.message}`, {
        reason: 'FIELD_VALIDATION_FAILED',
        fieldList,
      });
    }
    return run(parsed.data, context);
  },
});

const requireLoggingConfigurations = (state: IvsChatState, ids: string[] | undefined) => {
  for (const id of ids ?? []) state.loggingConfiguration(id);
};

/** The control-plane operations by name (the path of `POST /<Operation>`). */
export const OPERATIONS: Record<string, Operation> = {
  CreateRoom: operation(
    z.object({
      name: resourceName.default(''),
      maximumMessageRatePerSecond: z.number().int().min(1).max(100).default(10),
      maximumMessageLength: z.number().int().min(1).max(500).default(500),
      messageReviewHandler: messageReviewHandler.optional(),
      tags,
      loggingConfigurationIdentifiers: loggingIds.default([]),
    }),
    (input, { state, now }) => {
      requireLoggingConfigurations(state, input.loggingConfigurationIdentifiers);
      const id = randomId();
      const at = new Date(now());
      const room: RoomRecord = { ...input, arn: arnOf('room', id), id, createTime: at, updateTime: at };
      state.rooms.set(room.arn, room);
      return roomView(room);
    },
  ),
  GetRoom: operation(z.object({ identifier: roomArn }), ({ identifier }, { state }) =>
    roomView(state.room(identifier)),
  ),
  UpdateRoom: operation(
    z.object({
      identifier: roomArn,
      name: resourceName.optional(),
      maximumMessageRatePerSecond: z.number().int().min(1).max(100).optional(),
      maximumMessageLength: z.number().int().min(1).max(500).optional(),
      messageReviewHandler: messageReviewHandler.optional(),
      loggingConfigurationIdentifiers: loggingIds.optional(),
    }),
    ({ identifier, ...changes }, { state, now }) => {
      const room = state.room(identifier);
      requireLoggingConfigurations(state, changes.loggingConfigurationIdentifiers);
      Object.assign(room, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)), {
        updateTime: new Date(now()),
      });
      return roomView(room);
    },
  ),
  DeleteRoom: operation(
    z.object({ identifier: roomArn }),
    ({ identifier }, { state, messaging }) => {
      state.room(identifier);
      state.rooms.delete(identifier);
      messaging.closeRoom(identifier);
      return {};
    },
    204,
  ),
  ListRooms: operation(
    z.object({
      name: z.string().optional(),
      messageReviewHandlerUri: z.string().optional(),
      loggingConfigurationIdentifier: z.string().optional(),
      ...page,
    }),
    (input, { state }) => {
      const matching = [...state.rooms.values()].filter(
        (room) =>
          (input.name === undefined || room.name === input.name) &&
          (input.messageReviewHandlerUri === undefined ||
            room.messageReviewHandler?.uri === input.messageReviewHandlerUri) &&
          (input.loggingConfigurationIdentifier === undefined ||
            room.loggingConfigurationIdentifiers.includes(input.loggingConfigurationIdentifier)),
      );
      const { items, nextToken } = paginate(matching, input);
      return {
        rooms: items.map((room) => {
          const { maximumMessageLength: _, maximumMessageRatePerSecond: __, ...summary } = roomView(room);
          return summary;
        }),
        nextToken,
      };
    },
  ),
  CreateChatToken: operation(
    z.object({
      roomIdentifier: roomArn,
      userId: z.string().min(1).max(128),
      capabilities: z
        .array(z.enum(['SEND_MESSAGE', 'DISCONNECT_USER', 'DELETE_MESSAGE']))
        .max(3)
        .default([]),
      sessionDurationInMinutes: z.number().int().min(1).max(180).default(60),
      attributes,
    }),
    (input, { state, now }) => {
      state.room(input.roomIdentifier);
      const issued = now();
      const grant: TokenGrant = {
        roomArn: input.roomIdentifier,
        userId: input.userId,
        capabilities: [...new Set(input.capabilities)],
        attributes: input.attributes,
        sessionDurationMs: input.sessionDurationInMinutes * 60_000,
        tokenExpirationTime: new Date(issued + TOKEN_VALIDITY_MS),
        redeemed: false,
      };
      // An opaque handle, in the characters a WebSocket subprotocol may carry (base64url).
      const token = `AQICAH${randomBytes(48).toString('base64url')}`;
      state.tokens.set(token, grant);
      return {
        token,
        tokenExpirationTime: grant.tokenExpirationTime.toISOString(),
        // The latest a session opened with this token can last (IVS: from the connection).
        sessionExpirationTime: new Date(issued + grant.sessionDurationMs).toISOString(),
      };
    },
  ),
  SendEvent: operation(
    z.object({ roomIdentifier: roomArn, eventName: z.string().min(1).max(100), attributes }),
    (input, { state, messaging }) => {
      state.room(input.roomIdentifier);
      return { id: messaging.sendEvent(input.roomIdentifier, input.eventName, input.attributes) };
    },
  ),
  DeleteMessage: operation(
    z.object({
      roomIdentifier: roomArn,
      id: z.string().regex(/^[a-zA-Z0-9]{12}$/, 'must be 12 letters or digits'),
      reason: z.string().min(1).max(256).optional(),
    }),
    (input, { state, messaging }) => {
      state.room(input.roomIdentifier);
      return { id: messaging.deleteMessage(input.roomIdentifier, input.id, input.reason) };
    },
  ),
  DisconnectUser: operation(
    z.object({
      roomIdentifier: roomArn,
      userId: z.string().min(1).max(128),
      reason: z.string().min(1).max(256).optional(),
    }),
    (input, { state, messaging }) => {
      state.room(input.roomIdentifier);
      messaging.disconnectUser(input.roomIdentifier, input.userId, input.reason);
      return {};
    },
  ),
  CreateLoggingConfiguration: operation(
    z.object({ name: resourceName.default(''), destinationConfiguration, tags }),
    (input, { state, now }) => {
      const id = randomId();
      const at = new Date(now());
      const config: LoggingConfigurationRecord = {
        arn: arnOf('logging-configuration', id),
        id,
        name: input.name,
        createTime: at,
        updateTime: at,
        destinationConfiguration:
          input.destinationConfiguration as LoggingConfigurationRecord['destinationConfiguration'],
        tags: input.tags,
      };
      state.loggingConfigurations.set(config.arn, config);
      return loggingView(config);
    },
  ),
  GetLoggingConfiguration: operation(z.object({ identifier: loggingArn }), ({ identifier }, { state }) =>
    loggingView(state.loggingConfiguration(identifier)),
  ),
  UpdateLoggingConfiguration: operation(
    z.object({
      identifier: loggingArn,
      name: resourceName.optional(),
      destinationConfiguration: destinationConfiguration.optional(),
    }),
    ({ identifier, name, destinationConfiguration }, { state, now }) => {
      const config = state.loggingConfiguration(identifier);
      if (name !== undefined) config.name = name;
      if (destinationConfiguration)
        config.destinationConfiguration =
          destinationConfiguration as LoggingConfigurationRecord['destinationConfiguration'];
      config.updateTime = new Date(now());
      return loggingView(config);
    },
  ),
  DeleteLoggingConfiguration: operation(
    z.object({ identifier: loggingArn }),
    ({ identifier }, { state }) => {
      state.loggingConfiguration(identifier);
      const users = [...state.rooms.values()].filter((room) =>
        room.loggingConfigurationIdentifiers.includes(identifier),
      );
      if (users.length > 0)
        throw new IvsChatError(
          'ConflictException',
          `Logging configuration ${identifier} is used by ${users.length} room(s)`,
          {
            resourceId: identifier,
            resourceType: 'LOGGING_CONFIGURATION',
          },
        );
      state.loggingConfigurations.delete(identifier);
      return {};
    },
    204,
  ),
  ListLoggingConfigurations: operation(z.object(page), (input, { state }) => {
    const { items, nextToken } = paginate([...state.loggingConfigurations.values()], input);
    return { loggingConfigurations: items.map(loggingView), nextToken };
  }),
};
