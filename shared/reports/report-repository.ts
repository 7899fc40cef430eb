import type { ReportCategory, ReportTargetType } from '../catalog/model.ts';
import { PutCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { ConflictError } from '../http/errors.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';

/**
 * Content reports, stored for moderation. Key design (see docs/data-model.md, "Reports"):
 * - report: PK `REPORT#<target type>#<target id>`, SK `BY#<account id>`: the reports of one target
 *   are one item collection (a moderator reads them with one Query), and the conditional put on
 *   this key enforces one report per user per target.
 * - moderation queue: GSI1PK `REPORT_QUEUE#<yyyy-mm-dd>`, GSI1SK `<created_at>#<report id>`:
 *   the day's reports in arrival order (one partition per day, so writes never pile on one key).
 */

export interface ReportRecord {
  report_id: string;
  account_id: string;
  target_type: ReportTargetType;
  target_id: string;
  category: ReportCategory;
  reason: string | null;
  /** Moderation state: `pending_review` until a moderator acts. */
  status: 'pending_review';
  created_at: string;
}

const key = (targetType: ReportTargetType, targetId: string, accountId: string) => ({
  PK: `REPORT#${targetType}#${targetId}`,
  SK: `BY#${accountId}`,
});

/** Stores a report; ConflictError (409) when this account already reported this target. */
export const putReport = async (report: ReportRecord): Promise<void> => {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key(report.target_type, report.target_id, report.account_id),
          GSI1PK: `REPORT_QUEUE#${report.created_at.slice(0, 10)}`,
          GSI1SK: `${report.created_at}#${report.report_id}`,
          entity: 'report',
          ...report,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new ConflictError('You have already reported this content');
    throw error;
  }
};
