import { accountKeyOf } from './pseudonym.ts';
import { randomUUID } from 'node:crypto';
import { newSessionId, openPlayback } from './playback-count.ts';
import type {
  AnalyticsReceipt,
  AnalyticsSession,
  LiveEndBody,
  LiveEvent,
  LiveHeartbeatBody,
  LiveStartBody,
  VideoAdEvent,
  VideoEndBody,
  VideoErrorBody,
  VideoHeartbeatBody,
  VideoPlayerEvent,
  VideoQualityBody,
  VideoStartBody,
} from './schemas.ts';
import { type AnalyticsRecord, getSink } from './sink.ts';

/** Seconds between analytics heartbeats (spec 4.8, 8). */
export const HEARTBEAT_INTERVAL_SECONDS = 30;

/**
 * Who sent the events, as the server sees it: the account of a valid bearer token, the receive
 * time, and the viewer's country (ISO 3166-1 alpha-2) when a CDN in front of the API says it in
 * `CloudFront-Viewer-Country`, else `unknown`. API Gateway's HTTP API adds no geo header of its
 * own, and no address is ever stored (docs/analytics.md, "Dimensions").
 */
export interface Sender {
  accountId?: string;
  now: Date;
  country?: string;
}

/** The coarse country of a request: a two-letter `cloudfront-viewer-country`, else `unknown`. */
export const countryOf = (headers: Record<string, string | undefined>): string => {
  const country = headers['cloudfront-viewer-country']?.trim().toUpperCase();
  return country && /^[A-Z]{2}$/.test(country) ? country : 'unknown';
};

/** The sender of a request (a handler's `req`): its account, receive time and country. */
export const senderOf = (req: {
  principal?: { accountId: string } | undefined;
  now: Date;
  headers: Record<string, string | undefined>;
}): Sender => ({ accountId: req.principal?.accountId, now: req.now, country: countryOf(req.headers) });

/**
 * An event as the request schemas validated it, with the type its endpoint gives it (a single
 * event's endpoint names its type; a batch item carries its own). `event_id` and the client time
 * (`client_ts`, or its alias `timestamp`) may be absent (docs/analytics.md).
 */
export type ClientEvent =
  | ((VideoStartBody | LiveStartBody) & { type: 'start'; session_id: string })
  | ((VideoHeartbeatBody | LiveHeartbeatBody) & { type: 'heartbeat' })
  | ((VideoEndBody | LiveEndBody) & { type: 'end' })
  | (VideoQualityBody & { type: 'renditionchange' })
  | (VideoErrorBody & { type: 'error' })
  | VideoPlayerEvent
  | VideoAdEvent
  | LiveEvent;

/**
 * The stored record of a client event. The server assigns an `event_id` when the client sent none
 * (so only client ids ever de-duplicate: Segment's `messageId` rule), and `client_ts` is the
 * client's `client_ts`, else its `timestamp`, else the receive time; `timestamp` itself is not kept.
 */
export const toRecord = (
  { event_id, client_ts, timestamp, ...event }: ClientEvent,
  family: AnalyticsRecord['family'],
  context: Sender,
): AnalyticsRecord => {
  const received_at = context.now.toISOString();
  const clientTs = client_ts ?? timestamp ?? received_at;
  return {
    ...event,
    event_id: event_id ?? randomUUID(),
    client_ts: clientTs,
    family,
    received_at,
    received_at_ms: context.now.getTime(),
    client_ts_ms: Date.parse(clientTs),
    country: context.country ?? 'unknown',
    ...(context.accountId ? { account_id: context.accountId } : {}),
  };
};

/**
 * Accepts a batch of client events, all or nothing: the request's schema has already validated
 * every item (a bad item is a 422 naming `events.<i>.<field>` and nothing is written). Adds the
 * server's receive time, the family, the country and, when a valid token was sent, the account.
 */
export const ingest = async (
  family: AnalyticsRecord['family'],
  events: readonly ClientEvent[],
  context: Sender,
): Promise<AnalyticsReceipt> => {
  // The stored `account_id` is the account's keyed hash, never the id (shared/analytics/pseudonym.ts).
  const accountId = await accountKeyOf(context.accountId);
  const records = events.map((event) => toRecord(event, family, { ...context, accountId }));
  await (await getSink()).put(records);
  return { accepted: records.length, received_at: context.now.toISOString() };
};

/**
 * `session/start`: the server issues the analytics session id (a UUIDv7 carrying the start's
 * receive time) and tells the heartbeat interval. An on-demand session also gets its playback
 * item, which its heartbeats' playing time counts on (shared/analytics/playback-count.ts): only
 * sessions started here ever count a view.
 */
export const startSession = async (
  family: AnalyticsRecord['family'],
  event: VideoStartBody | LiveStartBody,
  context: Sender,
): Promise<AnalyticsSession> => {
  const session_id = newSessionId(context.now);
  if ('content_id' in event)
    await openPlayback(session_id, event.content_id, await accountKeyOf(context.accountId), context.now);
  await ingest(family, [{ ...event, type: 'start', session_id }], context);
  return { session_id, heartbeat_interval_seconds: HEARTBEAT_INTERVAL_SECONDS };
};
