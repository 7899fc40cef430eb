import { endpoint } from '../../shared/http/handler.ts';
import { readWithFactorPassed } from '../../shared/identity/factor-passed.ts';
import { ok } from '../../shared/http/reply.ts';
import { NO_STORE, studioChannel } from '../../shared/studio/channel-view.ts';
import { rotateStreamKey } from '../../shared/studio/channel-writes.ts';
import { requireLiveStudioCreator } from '../../shared/creators/live-studio-creator.ts';
import * as contracts from './channel-contracts.ts';

export const handler = endpoint(contracts.rotateStudioStreamKey, async ({ caller, now }) => {
  // A deleted account (its token outlives the tombstone by up to 15 minutes) gets no new key: its
  // broadcast was ended at DELETE /me (docs/accounts.md "Deletion").
  const creator = await readWithFactorPassed(caller(), now, requireLiveStudioCreator(caller().accountId));
  return ok(studioChannel(await rotateStreamKey(creator.id)), { headers: NO_STORE });
});
