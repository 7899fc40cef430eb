import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { studioEpisode, updateEpisode } from '../../shared/studio/show-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import { requireChargesEnabled } from '../../shared/payments/payout-repository.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.updateStudioEpisode, async ({ body, path, caller }) => {
  const creator = await requireStudioCreator(caller().accountId);
  // A paid price only once the creator's payouts take charges (docs/payments.md).
  if (body.access === 'ppv') await requireChargesEnabled(creator.id);
  return ok(studioEpisode(await updateEpisode(creator.id, path.id, path.episode_id, body)));
});
