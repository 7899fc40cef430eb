import { endpoint } from '../../shared/http/handler.ts';
import { readWithFactorPassed } from '../../shared/identity/factor-passed.ts';
import { created, ok } from '../../shared/http/reply.ts';
import { NO_STORE, studioChannel } from '../../shared/studio/channel-view.ts';
import { provisionChannel } from '../../shared/studio/channel-writes.ts';
import { requireLiveStudioCreator } from '../../shared/creators/live-studio-creator.ts';
import * as contracts from './channel-contracts.ts';

export const handler = endpoint(contracts.createStudioChannel, async ({ caller, now }) => {
  // A deleted account (its token outlives the tombstone by up to 15 minutes) makes no channel.
  const creator = await readWithFactorPassed(caller(), now, requireLiveStudioCreator(caller().accountId));
  const channel = await provisionChannel(creator);
  const reply = { headers: NO_STORE };
  return channel.created ? created(studioChannel(channel), reply) : ok(studioChannel(channel), reply);
});
