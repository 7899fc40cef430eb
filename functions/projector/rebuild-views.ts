import { type RebuildReport, rebuildViews } from '../../shared/projection/rebuild.ts';

/**
 * The operator's rebuild function (infra/projector.ts): `aws lambda invoke --function-name
 * <RebuildFunctionName> --payload '{"dryRun":true}' out.json` reports the differences; without
 * `dryRun` it repairs them. Answers the report (counts and the first differing keys).
 */
export const handler = async (event: { dryRun?: boolean } | undefined): Promise<RebuildReport> => {
  const report = await rebuildViews({ dryRun: event?.dryRun === true });
  console.log(JSON.stringify({ level: 'INFO', message: 'rebuild finished', ...report, examples: undefined }));
  return report;
};
