import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { createEpisode, studioEpisode } from '../../shared/studio/show-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import { requireChargesEnabled } from '../../shared/payments/payout-repository.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createStudioEpisode, async ({ body, path, caller, now }) => {
  const creator = await requireStudioCreator(caller().accountId);
  // A paid price only once the creator's payouts take charges (docs/payments.md).
  if (body.access === 'ppv') await requireChargesEnabled(creator.id);
  return created(studioEpisode(await createEpisode(creator.id, path.id, body, now)));
});
