import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { updateProfile } from '../../shared/studio/profile-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './schedule-contracts.ts';

export const handler = endpoint(contracts.updateStudioProfile, async ({ body, caller }) => {
  const creator = await requireStudioCreator(caller().accountId);
  return ok(await updateProfile(creator.id, body));
});
