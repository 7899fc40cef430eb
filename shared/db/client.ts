import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { awsClient } from '../aws/local-hook.ts';
import { DocumentClient } from './document.ts';

/**
 * Where DynamoDB (and its Streams API) is reached: DynamoDB Local with dummy credentials when
 * `DYNAMODB_ENDPOINT` is set, else the default AWS chain. Shared by every client of the table.
 */
export const dynamoEndpointConfig = () => {
  const local = process.env.DYNAMODB_ENDPOINT;
  return {
    ...(local
      ? {
          endpoint: local,
          region: process.env.AWS_REGION ?? 'local',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts: 3,
  };
};

/** A DynamoDB client configured as the shared one (the rebuild scans with a client of its own). */
export const newDynamoClient = () => awsClient(new DynamoDBClient(dynamoEndpointConfig()), 'dynamodb');

/**
 * The one DynamoDB document client of a container, created at module scope so warm invocations
 * reuse its connections. `DYNAMODB_ENDPOINT` points it at DynamoDB Local (or any compatible
 * endpoint); dummy credentials are used then, since no AWS account is involved.
 */
export const dynamo = newDynamoClient();

/** The table's calls in plain values (shared/db/document.ts), through `dynamo`. */
export const db = new DocumentClient(dynamo);
