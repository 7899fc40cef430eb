import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { deleteEpisode } from '../../shared/studio/show-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteStudioEpisode, async ({ path, caller }) => {
  const creator = await requireStudioCreator(caller().accountId);
  await deleteEpisode(creator.id, path.id, path.episode_id);
  return noContent();
});
