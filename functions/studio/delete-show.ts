import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { deleteShow } from '../../shared/studio/show-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteStudioShow, async ({ path, caller }) => {
  const creator = await requireStudioCreator(caller().accountId);
  await deleteShow(creator.id, path.id);
  return noContent();
});
