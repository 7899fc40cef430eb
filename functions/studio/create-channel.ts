import { endpoint } from '../../shared/http/handler.ts';
import { readWithFactorPassed } from '../../shared/identity/factor-passed.ts';
import { created, ok } from '../../shared/http/reply.ts';
import { NO_STORE, studioChannel } from '../../shared/studio/channel-view.ts';
import { provisionChannel } from '../../shared/studio/channel-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './channel-contracts.ts';

export const handler = endpoint(contracts.createStudioChannel, async ({ caller }) => {
  const creator = await readWithFactorPassed(caller(), requireStudioCreator(caller().accountId));
  const channel = await provisionChannel(creator);
  const reply = { headers: NO_STORE };
  return channel.created ? created(studioChannel(channel), reply) : ok(studioChannel(channel), reply);
});
