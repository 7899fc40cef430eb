import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { updateProgram } from '../../shared/studio/program-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './schedule-contracts.ts';

export const handler = endpoint(contracts.updateStudioProgram, async ({ body, path, caller }) =>
  ok(await updateProgram(await requireStudioCreator(caller().accountId), path.program_id, body)),
);
