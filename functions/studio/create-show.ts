import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { createShow, studioShow } from '../../shared/studio/show-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createStudioShow, async ({ body, caller, now }) => {
  const creator = await requireStudioCreator(caller().accountId);
  return created(studioShow(await createShow(creator, body, now)));
});
