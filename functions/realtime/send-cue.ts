import { endpoint } from '../../shared/http/handler.ts';
import { accepted } from '../../shared/http/reply.ts';
import { sendCue } from '../../shared/realtime/cues.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.sendCue, async ({ body, caller, now }) =>
  accepted(await sendCue(caller().accountId, body, now)),
);
