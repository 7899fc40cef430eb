import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Invoke, reviewMessage } from './review.ts';
import {
  ATTRIBUTES_MAX_BYTES,
  attributesBytes,
  type Capability,
  type IvsChatState,
  type Messaging,
  randomId,
  type TokenGrant,
} from './rooms.ts';

/**
 * The IVS Chat Messaging API (the WebSocket clients use; IVS's "Chat Messaging API Reference"),
 * served by the stand-in on the control plane's port: a client connects with a chat token as the
 * WebSocket subprotocol (`new WebSocket(endpoint, token)`); a token opens one connection, before
 * its `tokenExpirationTime`, for its session's duration. Clients publish JSON actions
 * (`SEND_MESSAGE`, `DELETE_MESSAGE`, `DISCONNECT_USER`, each with an optional `RequestId`) and
 * receive `MESSAGE`, `EVENT` and `ERROR` frames. Enforced as IVS does: the token's capabilities
 * (403), the room's `maximumMessageLength` in characters (413) and `maximumMessageRatePerSecond`
 * for the room (429), the message review handler before delivery (406 on DENY). docs/local-ivschat.md.
 */

/** IVS Chat's error codes on the WebSocket (the messaging SDK's `chatErrorCodes`). */
export const CHAT_ERROR = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  notAcceptable: 406,
  payloadTooLarge: 413,
  tooManyRequests: 429,
  internalServerError: 500,
} as const;

interface Connection {
  socket: WebSocket;
  grant: TokenGrant;
  ip: string;
  sessionTimer: NodeJS.Timeout;
}

class ChatError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface MessagingOptions {
  state: IvsChatState;
  /** Runs the room's message review handler (the Lambda service); without it, a handler always fails. */
  invoke?: Invoke;
  now?: () => number;
  reviewTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface MessagingServer extends Messaging {
  /** Takes an HTTP upgrade request (the server's `upgrade` event). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** The user ids connected to a room, one per connection. */
  connected(roomArn: string): string[];
  close(): void;
}

const CLOSE_NORMAL = 1000;

export const createMessaging = (options: MessagingOptions): MessagingServer => {
  const { state } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? console.warn;
  const invoke: Invoke =
    options.invoke ??
    (async (arn) => {
      throw Object.assign(new Error(`Function not found: ${arn}`), { name: 'ResourceNotFoundException' });
    });
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => [...protocols][0] ?? false,
  });
  const connections = new Set<Connection>();
  /** Times of the messages accepted per room in the last second (the room's rate limit). */
  const recent = new Map<string, number[]>();

  const sendTime = () => new Date(now()).toISOString();
  const inRoom = (roomArn: string) => [...connections].filter((c) => c.grant.roomArn === roomArn);
  const send = (connection: Connection, frame: object) => {
    if (connection.socket.readyState === connection.socket.OPEN)
      connection.socket.send(JSON.stringify(frame));
  };
  const broadcast = (roomArn: string, frame: object) => {
    for (const connection of inRoom(roomArn)) send(connection, frame);
  };
  const error = (connection: Connection, code: number, message: string, requestId?: string) =>
    send(connection, {
      Type: 'ERROR',
      Id: randomId(),
      RequestId: requestId,
      ErrorCode: code,
      ErrorMessage: message,
    });
  const event = (
    roomArn: string,
    eventName: string,
    attributes: Record<string, string>,
    requestId?: string,
  ) => {
    const id = randomId();
    broadcast(roomArn, {
      Type: 'EVENT',
      Id: id,
      RequestId: requestId,
      EventName: eventName,
      Attributes: attributes,
      SendTime: sendTime(),
    });
    return id;
  };
  const deleteMessage = (roomArn: string, messageId: string, reason?: string, requestId?: string) =>
    event(
      roomArn,
      'aws:DELETE_MESSAGE',
      // MessageID: deprecated in the reference, still what the JS messaging SDK 1.1 reads.
      { MessageId: messageId, MessageID: messageId, ...(reason ? { Reason: reason } : {}) },
      requestId,
    );
  /** Ends a connection from the server's side: out of the room at once, then the close handshake. */
  const drop = (connection: Connection, reason: string) => {
    connections.delete(connection);
    clearTimeout(connection.sessionTimer);
    connection.socket.close(CLOSE_NORMAL, reason);
  };
  const disconnectUser = (roomArn: string, userId: string, reason?: string, requestId?: string) => {
    event(
      roomArn,
      'aws:DISCONNECT_USER',
      { UserId: userId, ...(reason ? { Reason: reason } : {}) },
      requestId,
    );
    for (const connection of inRoom(roomArn))
      if (connection.grant.userId === userId) drop(connection, 'Disconnected by moderator');
  };

  const require = (connection: Connection, capability: Capability) => {
    if (!connection.grant.capabilities.includes(capability))
      throw new ChatError(CHAT_ERROR.forbidden, `This connection does not have the ${capability} capability`);
  };
  const optionalString = (value: unknown, field: string, max = 256): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || value.length > max)
      throw new ChatError(CHAT_ERROR.badRequest, `${field} must be a string of at most ${max} characters`);
    return value;
  };
  const takeRateSlot = (roomArn: string, perSecond: number) => {
    const at = now();
    const times = (recent.get(roomArn) ?? []).filter((t) => t > at - 1000);
    recent.set(roomArn, times);
    if (times.length >= perSecond) return false;
    times.push(at);
    return true;
  };

  const sendMessage = async (
    connection: Connection,
    request: Record<string, unknown>,
    requestId?: string,
  ) => {
    require(connection, 'SEND_MESSAGE');
    const room = state.rooms.get(connection.grant.roomArn);
    if (!room) throw new ChatError(CHAT_ERROR.notFound, 'Room not found');
    const content = request.Content;
    if (typeof content !== 'string' || content.length === 0)
      throw new ChatError(CHAT_ERROR.badRequest, 'Content must be a non-empty string');
    const attributes = request.Attributes ?? {};
    if (
      typeof attributes !== 'object' ||
      attributes === null ||
      Array.isArray(attributes) ||
      !Object.values(attributes).every((v) => typeof v === 'string')
    )
      throw new ChatError(CHAT_ERROR.badRequest, 'Attributes must be a map of strings');
    const messageAttributes = attributes as Record<string, string>;
    // The room's limit counts characters (code points), not bytes.
    if ([...content].length > room.maximumMessageLength)
      throw new ChatError(
        CHAT_ERROR.payloadTooLarge,
        `Content is longer than the room's maximum of ${room.maximumMessageLength} characters`,
      );
    if (attributesBytes(messageAttributes) > ATTRIBUTES_MAX_BYTES)
      throw new ChatError(CHAT_ERROR.payloadTooLarge, 'Attributes exceed 1 KB');
    if (!takeRateSlot(room.arn, room.maximumMessageRatePerSecond))
      throw new ChatError(
        CHAT_ERROR.tooManyRequests,
        `The room's rate of ${room.maximumMessageRatePerSecond} messages per second is exceeded`,
      );
    const id = randomId();
    let delivered = { content, attributes: messageAttributes };
    if (room.messageReviewHandler?.uri) {
      const verdict = await reviewMessage({
        handler: room.messageReviewHandler,
        invoke,
        request: {
          Content: content,
          MessageId: id,
          RoomArn: room.arn,
          Attributes: messageAttributes,
          Sender: {
            Attributes: connection.grant.attributes,
            UserId: connection.grant.userId,
            Ip: connection.ip,
          },
        },
        maxLength: room.maximumMessageLength,
        timeoutMs: options.reviewTimeoutMs,
        log,
      });
      if (verdict.result === 'DENY')
        throw new ChatError(
          CHAT_ERROR.notAcceptable,
          verdict.reason ?? 'Message denied by the message review handler',
        );
      delivered = { content: verdict.content, attributes: verdict.attributes };
    }
    broadcast(room.arn, {
      Type: 'MESSAGE',
      Id: id,
      RequestId: requestId,
      Content: delivered.content,
      Attributes: delivered.attributes,
      Sender: { UserId: connection.grant.userId, Attributes: connection.grant.attributes },
      SendTime: sendTime(),
    });
  };

  const handle = async (connection: Connection, raw: string) => {
    let request: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      request = parsed as Record<string, unknown>;
    } catch {
      return error(connection, CHAT_ERROR.badRequest, 'The request is not a JSON object');
    }
    const requestId = typeof request.RequestId === 'string' ? request.RequestId : undefined;
    try {
      optionalString(request.RequestId, 'RequestId');
      const roomArn = connection.grant.roomArn;
      switch (request.Action) {
        case 'SEND_MESSAGE':
          return await sendMessage(connection, request, requestId);
        case 'DELETE_MESSAGE': {
          require(connection, 'DELETE_MESSAGE');
          if (typeof request.Id !== 'string' || !/^[a-zA-Z0-9]{12}$/.test(request.Id))
            throw new ChatError(CHAT_ERROR.badRequest, 'Id must be the 12-character id of a message');
          deleteMessage(roomArn, request.Id, optionalString(request.Reason, 'Reason'), requestId);
          return;
        }
        case 'DISCONNECT_USER': {
          require(connection, 'DISCONNECT_USER');
          if (
            typeof request.UserId !== 'string' ||
            request.UserId.length === 0 ||
            request.UserId.length > 128
          )
            throw new ChatError(CHAT_ERROR.badRequest, 'UserId must be a string of 1 to 128 characters');
          disconnectUser(roomArn, request.UserId, optionalString(request.Reason, 'Reason'), requestId);
          return;
        }
        default:
          throw new ChatError(CHAT_ERROR.badRequest, `Unknown Action ${JSON.stringify(request.Action)}`);
      }
    } catch (caught) {
      if (caught instanceof ChatError) return error(connection, caught.code, caught.message, requestId);
      log(`IVS Chat stand-in: ${(caught as Error).stack}`);
      return error(connection, CHAT_ERROR.internalServerError, 'Internal error', requestId);
    }
  };

  const attach = (socket: WebSocket, grant: TokenGrant, ip: string) => {
    // The session ends at its duration: the client hears 401 (the SDK then reconnects with a new token).
    const sessionTimer = setTimeout(() => {
      error(connection, CHAT_ERROR.unauthorized, 'The session has expired');
      drop(connection, 'Session expired');
    }, grant.sessionDurationMs);
    sessionTimer.unref();
    const connection: Connection = { socket, grant, ip, sessionTimer };
    connections.add(connection);
    socket.on('message', (data) => void handle(connection, data.toString()));
    socket.on('close', () => {
      clearTimeout(sessionTimer);
      connections.delete(connection);
    });
  };

  /** Answers a refused handshake with an HTTP status and a JSON reason, as a failed upgrade. */
  const refuse = (socket: Duplex, status: 401 | 404, message: string) => {
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  return {
    handleUpgrade: (req, socket, head) => {
      const token = String(req.headers['sec-websocket-protocol'] ?? '')
        .split(',')[0]
        ?.trim();
      const grant = token ? state.tokens.get(token) : undefined;
      if (!token || !grant) return refuse(socket, 401, 'Invalid chat token');
      if (grant.redeemed) return refuse(socket, 401, 'The chat token has already been used');
      if (now() > grant.tokenExpirationTime.getTime())
        return refuse(socket, 401, 'The chat token has expired');
      if (!state.rooms.has(grant.roomArn)) return refuse(socket, 404, 'Room not found');
      grant.redeemed = true;
      wss.handleUpgrade(req, socket, head, (ws) => attach(ws, grant, req.socket.remoteAddress ?? ''));
    },
    sendEvent: (roomArn, eventName, attributes) => event(roomArn, eventName, attributes),
    deleteMessage: (roomArn, messageId, reason) => deleteMessage(roomArn, messageId, reason),
    disconnectUser: (roomArn, userId, reason) => disconnectUser(roomArn, userId, reason),
    closeRoom: (roomArn) => {
      for (const connection of inRoom(roomArn)) drop(connection, 'Room deleted');
    },
    connected: (roomArn) => inRoom(roomArn).map((c) => c.grant.userId),
    close: () => {
      for (const connection of connections) connection.socket.terminate();
      wss.close();
    },
  };
};
