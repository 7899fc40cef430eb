import { randomUUID } from 'node:crypto';
import { type AnalyticsRecord, getSink } from './sink.ts';

/** Seconds between analytics heartbeats (spec 4.8, 8). */
export const HEARTBEAT_INTERVAL_SECONDS = 30;

/** An event as the request schemas validated it, with the type its endpoint gives it. */
export type ClientEvent = { event_id: string; client_ts: string; type: string; session_id: string } & Record<
  string,
  unknown
>;

/**
 * Accepts a batch of client events, all or nothing: the request's schema has already validated
 * every item (a bad item is a 422 naming `events.<i>.<field>` and nothing is written). Adds the
 * server's receive time, the family and, when a valid token was sent, the account.
 */
export const ingest = async (
  family: AnalyticsRecord['family'],
  events: readonly ClientEvent[],
  context: { accountId?: string; now: Date },
): Promise<{ accepted: number; received_at: string }> => {
  const received_at = context.now.toISOString();
  const records: AnalyticsRecord[] = events.map((event) => ({
    ...event,
    family,
    received_at,
    received_at_ms: context.now.getTime(),
    client_ts_ms: Date.parse(event.client_ts),
    ...(context.accountId ? { account_id: context.accountId } : {}),
  }));
  await (await getSink()).put(records);
  return { accepted: records.length, received_at };
};

/** `session/start`: the server assigns the analytics session id and tells the heartbeat interval. */
export const startSession = async (
  family: AnalyticsRecord['family'],
  event: Omit<ClientEvent, 'type' | 'session_id'>,
  context: { accountId?: string; now: Date },
) => {
  const session_id = randomUUID();
  await ingest(family, [{ ...event, type: 'start', session_id } as ClientEvent], context);
  return { session_id, heartbeat_interval_seconds: HEARTBEAT_INTERVAL_SECONDS };
};
