import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { studioEpisode, updateEpisode } from '../../shared/studio/show-writes.ts';
import { requireStudioCreator } from '../../shared/studio/studio-creator.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.updateStudioEpisode, async ({ body, path, caller }) => {
  const creator = await requireStudioCreator(caller().accountId);
  return ok(studioEpisode(await updateEpisode(creator.id, path.id, path.episode_id, body)));
});
