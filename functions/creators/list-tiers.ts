import { creatorTiers } from '../../shared/creators/creators.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({}, () => ok(creatorTiers()));
