import { Sha256 } from '@aws-crypto/sha256-js';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * Publishing to the AppSync Event API over HTTP (docs/realtime.md): `POST <REALTIME_HTTP_URL>/event`
 * with `{ channel, events }` (1 to 5 JSON strings), signed with SigV4 by the function's own role
 * (the namespace publishes with AWS_IAM only; the grant is `appsync:EventPublish` on the `live`
 * namespace, shared/realtime/access.ts). REALTIME_HTTP_URL is the API's HTTP endpoint
 * (`https://<id>.appsync-api.<region>.amazonaws.com`), locally the stand-in's
 * (scripts/local/appsync-events). There is no SDK command for this call, so the signer is ours.
 */

/** What AppSync answers a publish: each event's fate by its index. */
export interface PublishResult {
  successful: Array<{ identifier: string; index: number }>;
  failed: Array<{ identifier: string; index: number; code?: number; message?: string }>;
}

/** A refused or failed publish (HTTP status and AppSync's error type). */
export class PublishError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    message: string,
  ) {
    super(`AppSync publish ${status} ${errorType}: ${message}`);
    this.name = 'PublishError';
  }
}

/** At most 5 events per publish (AppSync Events quota). */
export const EVENTS_PER_PUBLISH = 5;

const credentials = fromEnv();

/** Publishes `events` (each serialised to JSON) on `channel`; throws PublishError when AppSync refuses it. */
export const publishEvents = async (channel: string, events: readonly unknown[]): Promise<PublishResult> => {
  const base = process.env.REALTIME_HTTP_URL;
  if (!base) throw new Error('REALTIME_HTTP_URL is not set');
  const url = new URL('/event', base);
  const body = JSON.stringify({ channel, events: events.map((event) => JSON.stringify(event)) });
  const signer = new SignatureV4({
    service: 'appsync',
    region: process.env.AWS_REGION ?? 'us-east-1',
    sha256: Sha256,
    credentials,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers: { host: url.host, 'content-type': 'application/json' },
    body,
  });
  const response = await fetch(url, {
    method: 'POST',
    headers: signed.headers as Record<string, string>,
    body,
  });
  const text = await response.text();
  const parsed = (text ? JSON.parse(text) : {}) as PublishResult & {
    errors?: Array<{ errorType?: string; message?: string }>;
  };
  if (!response.ok) {
    const error = parsed.errors?.[0];
    throw new PublishError(response.status, error?.errorType ?? 'Unknown', error?.message ?? text);
  }
  return { successful: parsed.successful ?? [], failed: parsed.failed ?? [] };
};
