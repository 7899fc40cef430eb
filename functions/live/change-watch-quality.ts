import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { changeQuality } from '../../shared/watch/watch-playback.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.changeWatchQuality, async ({ path, body, caller, now }) =>
  ok(await changeQuality(path.id, caller().accountId, body, now)),
);
