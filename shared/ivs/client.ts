import { IvsClient } from '@aws-sdk/client-ivs';
import { awsClient, perContainer } from '../aws/local-hook.ts';

/**
 * The Amazon IVS control-plane client of a container (created on first use: most functions never
 * call IVS, and the client is not cheap to construct). Endpoint, region and credentials come from
 * the environment through the SDK's own chain, as for the table (shared/db/client.ts): on Lambda
 * the region and the execution role; locally the IVS stand-in (scripts/local/ivs) through the SDK's
 * endpoint setting `AWS_ENDPOINT_URL_IVS` (serviceId "ivs"), which no stack sets.
 *
 * Retries: IVS allows 5 requests a second for channel and stream-key operations (per account and
 * region) and answers ThrottlingException beyond; the SDK's standard retry mode backs off with
 * jitter on throttling and 5xx. Six attempts span about 10 s at worst, inside an API request's
 * budget; past that the caller sees a 503 (shared/http errors) rather than a hung request.
 */
export const IVS_MAX_ATTEMPTS = 6;

export const ivsClient = /* @__PURE__ */ perContainer(() =>
  awsClient(new IvsClient({ maxAttempts: IVS_MAX_ATTEMPTS, retryMode: 'standard' }), 'ivs'),
);
