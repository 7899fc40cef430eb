import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The documents Amazon IVS sends to EventBridge about low-latency channels ("Using Amazon
 * EventBridge with IVS Low-Latency Streaming", docs/ivs-events.md), as zod schemas: the one
 * source of their types. Unknown fields are dropped (AWS adds fields over time); an unknown
 * detail-type or event name is refused, so a new kind of event is noticed in the logs instead of
 * being applied as something it is not.
 */

// Zod Mini ships no locale: without it every message would read "Invalid input".
z.config(en());

const nonEmpty = /* @__PURE__ */ (() => z.string().check(z.minLength(1)))();

/** The EventBridge envelope every IVS document shares. */
const envelope = /* @__PURE__ */ (() => ({
  version: z.string(),
  id: nonEmpty,
  source: z.literal('aws.ivs'),
  account: z.string(),
  /** When IVS saw the change: ISO 8601, whole seconds (`2017-06-12T10:23:43Z`). */
  time: z.iso.datetime({ offset: true }),
  region: z.string(),
  resources: z.array(z.string()),
}))();

/** Channel events name their channel's ARN as the first resource (typed: `resources[0]` is a string). */
const channelResources = /* @__PURE__ */ (() => z.tuple([z.string()], z.string()))();

const channelEvent = /* @__PURE__ */ (() => ({ channel_name: z.string(), stream_id: nonEmpty }))();

export const streamStateChange = /* @__PURE__ */ (() =>
  z.object({
    ...envelope,
    'detail-type': z.literal('IVS Stream State Change'),
    resources: channelResources,
    detail: z.discriminatedUnion('event_name', [
      z.object({ event_name: z.literal('Stream Start'), ...channelEvent }),
      z.object({ event_name: z.literal('Stream End'), ...channelEvent }),
      z.object({ event_name: z.literal('Stream Failure'), ...channelEvent, reason: z.optional(z.string()) }),
      z.object({ event_name: z.literal('Session Created'), ...channelEvent }),
      z.object({ event_name: z.literal('Session Ended'), ...channelEvent, code: z.optional(z.string()) }),
      z.object({ event_name: z.literal('Stream Takeover'), ...channelEvent }),
      z.object({
        event_name: z.literal('Stream Takeover Failure'),
        ...channelEvent,
        code: z.optional(z.string()),
      }),
    ]),
  }))();
export type StreamStateChange = z.infer<typeof streamStateChange>;

export const streamHealthChange = /* @__PURE__ */ (() =>
  z.object({
    ...envelope,
    'detail-type': z.literal('IVS Stream Health Change'),
    resources: channelResources,
    detail: z.object({ event_name: z.enum(['Starvation Start', 'Starvation End']), ...channelEvent }),
  }))();
export type StreamHealthChange = z.infer<typeof streamHealthChange>;

export const recordingStateChange = /* @__PURE__ */ (() =>
  z.object({
    ...envelope,
    'detail-type': z.literal('IVS Recording State Change'),
    resources: channelResources,
    detail: z.object({
      ...channelEvent,
      recording_status: z.enum([
        'Recording Start',
        'Recording End',
        'Recording Start Failure',
        'Recording End Failure',
      ]),
      recording_status_reason: z.string(),
      recording_s3_bucket_name: z.string(),
      /** Empty when recording failed to start. */
      recording_s3_key_prefix: z.string(),
      recording_duration_ms: z.number().check(z.nonnegative()),
      recording_session_id: z.optional(z.string()),
      /** Recording End of a merged recording (reconnect window): every stream it holds. */
      recording_session_stream_ids: z.optional(z.array(z.string())),
    }),
  }))();
export type RecordingStateChange = z.infer<typeof recordingStateChange>;

/** Account-wide limits (concurrent broadcasts, viewers) name no channel: `resources` is empty. */
export const limitBreach = /* @__PURE__ */ (() =>
  z.object({
    ...envelope,
    'detail-type': z.literal('IVS Limit Breach'),
    detail: z.object({
      limit_name: nonEmpty,
      limit_value: z.number(),
      exceeded_by: z.number(),
      limit_unit: z.string(),
      channel_name: z.optional(z.string()),
      stream_id: z.optional(z.string()),
    }),
  }))();
export type LimitBreach = z.infer<typeof limitBreach>;

export const ivsEvent = /* @__PURE__ */ (() =>
  z.discriminatedUnion('detail-type', [
    streamStateChange,
    streamHealthChange,
    recordingStateChange,
    limitBreach,
  ]))();
export type IvsEvent = z.infer<typeof ivsEvent>;

export type ParsedIvsEvent = { ok: true; event: IvsEvent } | { ok: false; error: string };

/**
 * One EventBridge document as a typed IVS event, or why not: each problem as `<path>: <message>`
 * (`detail.stream_id: Invalid input: expected string, received undefined`), joined with `; `.
 */
export const parseIvsEvent = (doc: unknown): ParsedIvsEvent => {
  const result = ivsEvent.safeParse(doc);
  if (result.success) return { ok: true, event: result.data };
  const error = result.error.issues
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  return { ok: false, error };
};

/** The event's time in epoch milliseconds: the ordering key of the live state. */
export const eventTimeMs = (event: IvsEvent): number => Date.parse(event.time);
