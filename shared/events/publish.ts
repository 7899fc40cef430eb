import { backoff } from '../backoff.ts';
import {
  EventBridgeClient,
  PutEventsCommand,
  type PutEventsRequestEntry,
  type PutEventsResultEntry,
} from '@aws-sdk/client-eventbridge';
import { awsClient, perContainer } from '../aws/local-hook.ts';
import { EVENT_PAYLOADS } from './catalog.ts';
import { EVENT_SOURCE, PlatformEvent } from './envelope.ts';

/**
 * Events onto the stack's EventBridge bus (docs/events.md). The EventBridge form of a platform
 * event: `source` EVENT_SOURCE, `detail-type` its type (`creator.live`...), `detail` the envelope
 * (`{id, type, version, time, creator_id, data}`), `time` the change's time. A rule matches on
 * `source`, `detail-type` and `detail.creator_id`; consumers deduplicate on `detail.id` (the
 * EventBridge event's own `id` differs on every put).
 */

/** PutEvents takes at most 10 entries per call. */
export const PUT_EVENTS_MAX_ENTRIES = 10;
/** Calls per chunk: the first and two retries of the entries that failed (with backoff). */
export const PUT_EVENTS_ATTEMPTS = 3;
const BACKOFF_MS = 50;

/**
 * The EventBridge client of a container. Endpoint, region and credentials come from the
 * environment through the SDK's own chain (shared/db/client.ts); locally the bus stand-in
 * (scripts/local/event-bus.ts) through the SDK's endpoint setting `AWS_ENDPOINT_URL_EVENTBRIDGE`
 * (serviceId "EventBridge"), which no stack sets.
 * The SDK retries a throttled or failed call itself (standard mode); entries that fail inside a
 * successful call are retried by `publishEvents`.
 */
export const eventsClient = /* @__PURE__ */ perContainer(() =>
  awsClient(new EventBridgeClient({ retryMode: 'standard' }), 'events'),
);

/** The bus the publisher puts on (EVENT_BUS_NAME, set by infra/events.ts and the local platform). */
export const eventBusName = (): string => {
  const name = process.env.EVENT_BUS_NAME;
  if (!name) throw new Error('EVENT_BUS_NAME is not set: the publisher has no bus');
  return name;
};

/** An event's PutEvents entry. */
export const toEntry = (event: PlatformEvent, busName: string): PutEventsRequestEntry => ({
  EventBusName: busName,
  Source: EVENT_SOURCE,
  DetailType: event.type,
  Detail: JSON.stringify(event),
  Time: new Date(event.time),
});

/** Problems of an event against the envelope and its type's payload schema (none: publishable). */
export const eventProblems = (event: PlatformEvent): string[] => {
  const envelope = PlatformEvent.safeParse(event);
  if (!envelope.success) return envelope.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  const data = EVENT_PAYLOADS[event.type].safeParse(event.data);
  return data.success ? [] : data.error.issues.map((i) => `data.${i.path.join('.')}: ${i.message}`);
};

/** What PutEvents answered for each entry, or what the call threw. */
export type PutEvents = (entries: PutEventsRequestEntry[]) => Promise<PutEventsResultEntry[]>;

/** PutEvents through the container's client. */
export const putEvents: PutEvents = async (entries) => {
  const result = await eventsClient().send(new PutEventsCommand({ Entries: entries }));
  return result.Entries ?? [];
};

export interface PublishReport {
  /** Events accepted by the bus. */
  published: number;
  /** Entry failures seen, including those a retry then published (the failed-entries metric). */
  failedEntries: number;
  /** Index of the first event still not published after every attempt, if any. */
  firstUnpublished?: number;
  /** The error codes of failed entries (or the thrown error's name), for the log. */
  errors: string[];
}

/**
 * Publishes `events` in order, in calls of at most 10 entries. The entries a call reports failed
 * (or all of them when the call throws) are put again, up to PUT_EVENTS_ATTEMPTS calls with
 * jittered backoff. At the first chunk that still has failures it stops: the caller reports that
 * event's record as the batch's failure, so the stream redelivers from there and later events keep
 * their order. Events already put are put again on that redelivery with the same ids.
 */
export const publishEvents = async (
  events: readonly PlatformEvent[],
  options: { busName: string; put?: PutEvents },
): Promise<PublishReport> => {
  const put = options.put ?? putEvents;
  const report: PublishReport = { published: 0, failedEntries: 0, errors: [] };
  for (let start = 0; start < events.length; start += PUT_EVENTS_MAX_ENTRIES) {
    let pending = events
      .slice(start, start + PUT_EVENTS_MAX_ENTRIES)
      .map((event, i) => ({ index: start + i, entry: toEntry(event, options.busName) }));
    for (let attempt = 0; pending.length > 0 && attempt < PUT_EVENTS_ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt, BACKOFF_MS);
      let results: PutEventsResultEntry[];
      try {
        results = await put(pending.map((p) => p.entry));
      } catch (error) {
        report.failedEntries += pending.length;
        report.errors.push((error as Error).name);
        continue;
      }
      const failed = pending.filter((_, i) => !results[i]?.EventId);
      report.published += pending.length - failed.length;
      report.failedEntries += failed.length;
      report.errors.push(...results.flatMap((r) => (r.EventId ? [] : [r.ErrorCode ?? 'NoResult'])));
      pending = failed;
    }
    if (pending.length > 0) {
      report.firstUnpublished = Math.min(...pending.map((p) => p.index));
      return report;
    }
  }
  return report;
};
