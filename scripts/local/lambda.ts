import type { WorkerRow } from '../../shared/routing/function-row.ts';
import { functionContext, localFunctionArn, runAsFunction } from './aws.ts';

export { localFunctionArn };

/**
 * The local stand-in for Lambda's Invoke, for what AWS services invoke by function ARN (IVS
 * Chat's message review handler, docs/local-ivschat.md): a function is served under a local ARN
 * and runs as any local function does, with its row's environment and IAM policy
 * (`runAsFunction`, scripts/local/aws.ts). Invoking an ARN nothing serves fails with
 * ResourceNotFoundException, as Lambda answers for a function that does not exist.
 */

const served = new Map<string, (payload: unknown) => Promise<unknown>>();

/** Serves `handler` as `row`'s function under `localFunctionArn(row)`, which it answers. */
export const serveLocalFunction = (row: WorkerRow, handler: (payload: never) => Promise<unknown>): string => {
  const arn = localFunctionArn(row);
  const context = functionContext(row);
  served.set(arn, (payload) => runAsFunction(context, () => handler(payload as never)));
  return arn;
};

/** Invokes the function served under `arn` with `payload` (RequestResponse) and answers its result. */
export const invokeLocalFunction = async (arn: string, payload: unknown): Promise<unknown> => {
  const run = served.get(arn);
  if (!run)
    throw Object.assign(new Error(`Function not found: ${arn}`), { name: 'ResourceNotFoundException' });
  return run(payload);
};
