/**
 * `npm run rebuild-views`: recomputes every view (ranked lists, search index, list totals) from
 * the source items of a table and repairs what differs (shared/projection/rebuild.ts). On AWS
 * the rebuild function does the same (docs/operations.md); this runs it from a shell.
 *
 *   TABLE_NAME=<table> npm run rebuild-views -- [--dry-run]
 *
 * The SDK's AWS_ENDPOINT_URL_DYNAMODB points it at DynamoDB Local (`npm start` prints its endpoint;
 * dummy credentials then where the environment has none: scripts/local/local-table.ts).
 */
import { parseArgs } from 'node:util';
import { rebuildViews } from '../shared/projection/rebuild.ts';
import { useLocalCredentialsWithLocalTable } from './local/local-table.ts';

const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } } });
try {
  if (!process.env.TABLE_NAME) throw new Error('TABLE_NAME is required: the table to rebuild the views of.');
  useLocalCredentialsWithLocalTable();
  const started = Date.now();
  const report = await rebuildViews({ dryRun: values['dry-run'] });
  console.log(
    `${report.dryRun ? 'would rebuild' : 'rebuilt'}: ${report.sources} source items, ${report.views} view items; ` +
      `${report.put} ${report.dryRun ? 'to put' : 'put'}, ${report.deleted} ${report.dryRun ? 'to delete' : 'deleted'}, ` +
      `${report.showProfiles} show profiles (GSI1 key, episode tally) ${report.dryRun ? 'to repair' : 'repaired'}, ` +
      `${report.earningMonths} earning months (monthly totals) ${report.dryRun ? 'to set' : 'set'} ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const key of report.examples) console.log(`  differs: ${key}`);
} catch (error) {
  console.error(`rebuild-views: ${(error as Error).message}`);
  process.exitCode = 1;
}
