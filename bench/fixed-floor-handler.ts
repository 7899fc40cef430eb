/**
 * The floor with the fixed packages (developers' guide): the fair floor's document client and one
 * GetItem, inside the middy chain with the one middleware every endpoint uses from middy (its JSON
 * body parser; no header normalizer, API Gateway's HTTP API already lower-cases header names), and
 * a query validated by Zod Mini with its English messages, as shared/schema/validation.ts loads
 * them. What every function must carry before any code of ours: the cold-import report sets the
 * functions beside it as well as beside the fair floor (issue 41 item 2, docs/performance.md).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const query = z.object({ id: z.optional(z.string().check(z.maxLength(64))) });

export const handler = middy<{ queryStringParameters?: Record<string, string> }>()
  .use(httpJsonBodyParser({ disableContentTypeError: true }))
  .handler(async (event) => {
    const { id = 'cr_0001' } = query.parse(event.queryStringParameters ?? {});
    const result = await db.send(
      new GetCommand({
        TableName: process.env.TABLE_NAME ?? 'floor',
        Key: { PK: `CREATOR#${id}`, SK: 'PROFILE' },
      }),
    );
    return { statusCode: 200, body: JSON.stringify(result.Item ?? null) };
  });
