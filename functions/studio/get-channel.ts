import { endpoint } from '../../shared/http/handler.ts';
import { readWithFactorPassed } from '../../shared/identity/factor-passed.ts';
import { ok } from '../../shared/http/reply.ts';
import { NO_STORE, studioChannel } from '../../shared/studio/channel-view.ts';
import { channelState } from '../../shared/studio/channel-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './channel-contracts.ts';

export const handler = endpoint(contracts.getStudioChannel, async ({ caller, now }) => {
  const creator = await readWithFactorPassed(caller(), now, requireStudioCreator(caller().accountId));
  return ok(studioChannel(await channelState(creator.id)), { headers: NO_STORE });
});
