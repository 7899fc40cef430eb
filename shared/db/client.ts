import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClient } from '../aws/local-hook.ts';

/**
 * The one DynamoDB document client of a container, created at module scope so warm invocations
 * reuse its connections. `DYNAMODB_ENDPOINT` points it at DynamoDB Local (or any compatible
 * endpoint); dummy credentials are used then, since no AWS account is involved.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT;

/** A DynamoDB client configured as the shared one (the rebuild scans with a client of its own). */
export const newDynamoClient = () =>
  awsClient(
    new DynamoDBClient({
      ...(endpoint
        ? {
            endpoint,
            region: process.env.AWS_REGION ?? 'local',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {}),
      maxAttempts: 3,
    }),
    'dynamodb',
  );

export const dynamo = newDynamoClient();

export const db = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});
