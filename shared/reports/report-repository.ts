import type { ReportCategory, ReportTargetType } from '../catalog/model.ts';
import { DeleteCommand, GetCommand, TransactWriteCommand } from '../db/document.ts';
import { recordOf } from '../db/record.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { ConflictError } from '../errors/errors.ts';
import { cancellationCodes } from '../db/transaction.ts';

/**
 * Content reports, stored for moderation. Key design (see docs/data-model.md, "Reports"):
 * - report: PK `REPORT#<target type>#<target id>`, SK `BY#<account id>`: the reports of one target
 *   are one item collection (a moderator reads them with one Query), and the conditional put on
 *   this key enforces one report per user per target.
 * - moderation queue: GSI1PK `REPORT_QUEUE#<yyyy-mm-dd>`, GSI1SK `<created_at>#<report id>`:
 *   the day's reports in arrival order (one partition per day, so writes never pile on one key).
 * - the reporter's reference: PK `ACCOUNT#<account id>`, SK `REPORT#<target type>#<target id>`,
 *   written in the report's transaction: an account's reports are in its partition, for its
 *   export and its deletion (docs/accounts.md).
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
const referenceKey = (accountId: string, targetType: ReportTargetType, targetId: string) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `REPORT#${targetType}#${targetId}`,
});

export const putReport = async (report: ReportRecord): Promise<void> => {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...key(report.target_type, report.target_id, report.account_id),
                GSI1PK: `REPORT_QUEUE#${report.created_at.slice(0, 10)}`,
                GSI1SK: `${report.created_at}#${report.report_id}`,
                entity: 'report',
                ...report,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...referenceKey(report.account_id, report.target_type, report.target_id),
                entity: 'report_reference',
                target_type: report.target_type,
                target_id: report.target_id,
              },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed')
      throw new ConflictError('You have already reported this content');
    throw error;
  }
};

/** One report of an account on a target, if it made one. */
export const getReport = async (
  accountId: string,
  targetType: ReportTargetType,
  targetId: string,
): Promise<ReportRecord | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: key(targetType, targetId, accountId) }),
  );
  return Item ? recordOf<ReportRecord>(Item) : undefined;
};

/** Deletes a report and its reference (the account's deletion). */
export const deleteReport = async (accountId: string, targetType: ReportTargetType, targetId: string) => {
  await Promise.all([
    db.send(new DeleteCommand({ TableName: tableName(), Key: key(targetType, targetId, accountId) })),
    db.send(
      new DeleteCommand({ TableName: tableName(), Key: referenceKey(accountId, targetType, targetId) }),
    ),
  ]);
};
