import { DeleteCommand, PutCommand, QueryCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';

/**
 * Continue watching: the latest playhead per account and episode.
 * PK `ACCOUNT#<account>`, SK `PROGRESS#<episode id>`; GSI3PK `PROGRESS#<account>`,
 * GSI3SK `<updated_at ISO>#<episode id>`: "most recently watched first" is one Query on GSI3.
 * A finished episode's item is deleted, so it drops off the list.
 */
export interface ProgressRecord {
  account_id: string;
  content_id: string;
  show_id: string;
  title: string;
  thumbnail_url: string;
  position_seconds: number;
  duration_seconds: number;
  updated_at: string;
}

const key = (accountId: string, contentId: string) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `PROGRESS#${contentId}`,
});

export const saveProgress = async (record: ProgressRecord) => {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...key(record.account_id, record.content_id),
        GSI3PK: `PROGRESS#${record.account_id}`,
        GSI3SK: `${record.updated_at}#${record.content_id}`,
        entity: 'progress',
        ...record,
      },
    }),
  );
};

export const clearProgress = async (accountId: string, contentId: string) => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: key(accountId, contentId) }));
};

export const listProgress = async (accountId: string, limit: number): Promise<ProgressRecord[]> => {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI3',
      KeyConditionExpression: 'GSI3PK = :pk',
      ExpressionAttributeValues: { ':pk': `PROGRESS#${accountId}` },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => recordOf<ProgressRecord>(item));
};
