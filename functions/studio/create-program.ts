import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { createProgram } from '../../shared/studio/program-writes.ts';
import { requireStudioCreator } from '../../shared/creators/studio-creator.ts';
import * as contracts from './schedule-contracts.ts';

export const handler = endpoint(contracts.createStudioProgram, async ({ body, caller }) =>
  created(await createProgram(await requireStudioCreator(caller().accountId), body)),
);
