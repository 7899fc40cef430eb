import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal IVS Chat control plane for the tests (AWS REST-JSON: `POST /<Operation>` with a JSON
 * body, errors named by `x-amzn-errortype`), covering the operations the back end calls:
 * CreateRoom, DeleteRoom, UpdateRoom, CreateChatToken, DeleteMessage, DisconnectUser, SendEvent.
 * The global setup starts it when the local platform has no IVS Chat stand-in of its own (no
 * `AWS_ENDPOINT_URL_IVSCHAT`); tests read what it was asked at `GET /_test/calls`. Rooms live in
 * memory with the account and region of the IVS stand-in's ARNs (scripts/local/aws.ts LOCAL_CHAT).
 */

export interface ControlCall {
  operation: string;
  input: Record<string, unknown>;
}

const ROOM_PREFIX = 'arn:aws:ivschat:us-east-1:000000000000:room/';

export const startIvsChatControl = async (): Promise<{ endpoint: string; stop(): Promise<void> }> => {
  const rooms = new Map<string, Record<string, unknown>>();
  const calls: ControlCall[] = [];
  const roomOf = (identifier: unknown) => {
    const id = String(identifier ?? '');
    return rooms.get(id.startsWith(ROOM_PREFIX) ? id : `${ROOM_PREFIX}${id}`);
  };
  const operations: Record<string, (input: Record<string, unknown>) => [number, unknown]> = {
    CreateRoom: (input) => {
      const id = randomUUID().replace(/-/g, '').slice(0, 12);
      const now = new Date().toISOString();
      const room = { ...input, arn: `${ROOM_PREFIX}${id}`, id, createTime: now, updateTime: now };
      rooms.set(room.arn, room);
      return [200, room];
    },
    DeleteRoom: (input) => {
      const room = roomOf(input.identifier);
      if (!room) return [404, { __type: 'ResourceNotFoundException', message: 'room not found' }];
      rooms.delete(String(room.arn));
      return [204, undefined];
    },
    UpdateRoom: (input) => {
      const room = roomOf(input.identifier);
      if (!room) return [404, { __type: 'ResourceNotFoundException', message: 'room not found' }];
      Object.assign(room, input, { updateTime: new Date().toISOString() });
      return [200, room];
    },
    CreateChatToken: (input) => {
      if (!roomOf(input.roomIdentifier))
        return [404, { __type: 'ResourceNotFoundException', message: 'room not found' }];
      const now = Date.now();
      return [
        200,
        {
          token: `ct_${randomUUID()}`,
          tokenExpirationTime: new Date(now + 60_000).toISOString(),
          sessionExpirationTime: new Date(
            now + Number(input.sessionDurationInMinutes ?? 60) * 60_000,
          ).toISOString(),
        },
      ];
    },
    DeleteMessage: (input) =>
      roomOf(input.roomIdentifier)
        ? [200, { id: randomUUID() }]
        : [404, { __type: 'ResourceNotFoundException', message: 'room not found' }],
    DisconnectUser: (input) =>
      roomOf(input.roomIdentifier)
        ? [200, {}]
        : [404, { __type: 'ResourceNotFoundException', message: 'room not found' }],
    SendEvent: (input) =>
      roomOf(input.roomIdentifier)
        ? [200, { id: randomUUID() }]
        : [404, { __type: 'ResourceNotFoundException', message: 'room not found' }],
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && path === '/_test/calls') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ calls, rooms: [...rooms.keys()] }));
      return;
    }
    const operation = operations[path.slice(1)];
    if (req.method !== 'POST' || !operation) {
      res.writeHead(404, { 'x-amzn-errortype': 'UnknownOperationException' }).end('{}');
      return;
    }
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    calls.push({ operation: path.slice(1), input });
    const [status, body] = operation(input);
    const type = (body as { __type?: string } | undefined)?.__type;
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(type ? { 'x-amzn-errortype': type } : {}),
    });
    res.end(body === undefined ? '' : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** What the control plane was asked so far (for assertions), through its test endpoint. */
export const controlCalls = async (): Promise<{ calls: ControlCall[]; rooms: string[] }> =>
  (await fetch(`${process.env.AWS_ENDPOINT_URL_IVSCHAT}/_test/calls`)).json() as Promise<{
    calls: ControlCall[];
    rooms: string[];
  }>;
