import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { studioShow, updateShow } from '../../shared/studio/show-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.updateStudioShow, async ({ body, path, caller }) => {
  const creator = await requireStudioCreator(caller().accountId);
  return ok(studioShow(await updateShow(creator.id, path.id, body)));
});
