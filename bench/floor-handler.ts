/**
 * The floor: the least a DynamoDB-backed Lambda can do. It creates the document client and makes
 * one GetItem. Every function's cold import and warm latency are reported as a ratio to this.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => {
  const result = await db.send(
    new GetCommand({
      TableName: process.env.TABLE_NAME ?? 'floor',
      Key: { PK: 'CREATOR#cr_0001', SK: 'PROFILE' },
    }),
  );
  return { statusCode: 200, body: JSON.stringify(result.Item ?? null) };
};
