import { homeSections } from '../../shared/home/home.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({}, async ({ principal }) => ok(await homeSections(principal?.accountId)));
