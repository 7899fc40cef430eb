import { worker } from '../../shared/platform/worker.ts';
import { type RebuildReport, rebuildViews } from '../../shared/projection/rebuild.ts';
import { rebuildRow } from '../workers.ts';

/**
 * The operator's rebuild function (infra/projector.ts): `aws lambda invoke --function-name
 * <RebuildFunctionName> --payload '{"dryRun":true}' out.json` reports the differences; without
 * `dryRun` it repairs them. Answers the report (counts and the first differing keys).
 */
export const handler = worker(
  rebuildRow,
  (event: { dryRun?: boolean } | undefined): Promise<RebuildReport> =>
    rebuildViews({ dryRun: event?.dryRun === true }),
  (report) => ({ message: 'rebuild finished', fields: { ...report, examples: undefined } }),
);
