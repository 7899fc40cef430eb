import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { awsClient } from '../aws/local-hook.ts';
import { DocumentClient } from './document.ts';

/**
 * How every client of the table (and of its Streams API) is configured: as on Lambda, only the
 * retry budget. Endpoint, region and credentials come from the environment through the SDK's own
 * chain: `AWS_REGION`, `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` (Lambda sets them from the
 * execution role), and a stand-in such as DynamoDB Local through the SDK's endpoint settings
 * `AWS_ENDPOINT_URL_DYNAMODB` and `AWS_ENDPOINT_URL_DYNAMODB_STREAMS` (no stack sets them). A
 * fresh object per client: the SDK writes its resolved settings into the object it is given.
 */
export const dynamoClientConfig = () => ({ maxAttempts: 3 });

/** A DynamoDB client configured as the shared one (the rebuild scans with a client of its own). */
export const newDynamoClient = () => awsClient(new DynamoDBClient(dynamoClientConfig()), 'dynamodb');

/**
 * The one DynamoDB document client of a container, created at module scope so warm invocations
 * reuse its connections. The SDK resolves its endpoint and credentials on the first call.
 */
export const dynamo = newDynamoClient();

/** The table's calls in plain values (shared/db/document.ts), through `dynamo`. */
export const db = new DocumentClient(dynamo);
