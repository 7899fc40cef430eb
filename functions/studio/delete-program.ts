import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { deleteProgram } from '../../shared/studio/program-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './schedule-contracts.ts';

export const handler = endpoint(contracts.deleteStudioProgram, async ({ path, caller }) => {
  await deleteProgram(await requireStudioCreator(caller().accountId), path.program_id);
  return noContent();
});
