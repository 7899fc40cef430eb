import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IvsState } from './api.ts';
import type { Broadcaster } from './broadcaster.ts';

/**
 * The local broadcast control, served on the IVS stand-in's port (not part of IVS or of our API):
 * `POST /_local/broadcast/<start|stop|starve|recover>` with `{"channel": "<creator id>"}` (IVS
 * channels are named after their creator) or the channel ARN. What an encoder connecting to the
 * ingest endpoint, or disconnecting, would make IVS do: `npm run broadcast` calls it.
 */
const ACTIONS = ['start', 'stop', 'starve', 'recover'] as const;
type Action = (typeof ACTIONS)[number];

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
};

export const createBroadcastControl =
  (state: IvsState, broadcaster: () => Broadcaster) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const match = /^\/_local\/broadcast\/([a-z]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return false;
    const action = match[1] as Action;
    if (!ACTIONS.includes(action)) {
      reply(res, 404, { error: `no action ${action}` });
      return true;
    }
    const { channel } = await readJson(req);
    const found = [...state.channels.values()].find((c) => c.arn === channel || c.name === channel);
    if (!found) {
      reply(res, 404, {
        error: `no IVS channel named ${String(channel)}: create it with POST /studio/channel`,
      });
      return true;
    }
    try {
      const done = await broadcaster()[action](found.arn);
      reply(res, 200, {
        channel_arn: found.arn,
        action,
        ...(done && typeof done === 'object' ? { result: done } : {}),
      });
    } catch (error) {
      reply(res, 409, { error: (error as Error).message });
    }
    return true;
  };
