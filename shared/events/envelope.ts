import * as z from 'zod/mini';

/**
 * The platform's domain events: what every event carries, whatever its type (docs/events.md).
 * The per-type payloads live in shared/events/catalog.ts; the EventBridge form (source,
 * detail-type, detail) in shared/events/publish.ts. This module is the contract between the
 * publisher (the projection path) and the consumers (webhook deliveries, other teams' rules).
 */

/** EventBridge `source` of every platform event on the stack's bus. */
export const EVENT_SOURCE = 'streaming.platform';

/**
 * Every event type, with who may subscribe to it: `public` events are about what anyone can see
 * on a creator's channel (a partner may subscribe to them for any creator); `private` events
 * involve one viewer's account, so only the creator they are about may subscribe.
 */
export const EVENT_TYPES = {
  'creator.live': 'public',
  'creator.offline': 'public',
  'creator.updated': 'public',
  'show.published': 'public',
  'episode.published': 'public',
  'program.scheduled': 'public',
  'program.changed': 'public',
  'subscription.created': 'private',
  'subscription.cancelled': 'private',
  'subscription.renewed': 'private',
  'subscription.past_due': 'private',
  'subscription.expired': 'private',
  'purchase.completed': 'private',
  'purchase.refunded': 'private',
  'account.deleted': 'private',
  'chat.user_banned': 'private',
  'chat.user_unbanned': 'private',
  'chat.message_deleted': 'private',
  'chat.moderator_added': 'private',
  'chat.moderator_removed': 'private',
  'chat.settings_changed': 'private',
} as const satisfies Record<string, 'public' | 'private'>;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = /* @__PURE__ */ (() =>
  Object.keys(EVENT_TYPES) as [EventType, ...EventType[]])();

/** The envelope: `detail` of the EventBridge event, and (as `{type, timestamp, data}`) a webhook's body. */
export const PlatformEvent = /* @__PURE__ */ (() =>
  z.object({
    /** Stable across retries of the same change (a consumer's idempotency key, the webhook-id). */
    id: z.string().check(z.minLength(1), z.maxLength(128)),
    type: z.enum(EVENT_TYPE_NAMES),
    /** The version of the type's payload schema, `'1'` today; a breaking change adds a version. */
    version: z.string(),
    /** When the change happened (ISO 8601, UTC). */
    time: z.iso.datetime(),
    /** The creator the event is about: what a subscription's `condition.creator_id` matches. */
    creator_id: z.string(),
    /** The type's payload, small (well under 20 KB): ids, names, times, never secrets. */
    data: z.record(z.string(), z.unknown()),
  }))();
export type PlatformEvent = z.infer<typeof PlatformEvent>;
