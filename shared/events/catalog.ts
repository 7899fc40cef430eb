import * as z from 'zod/mini';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import { described } from '../schema/schema-meta.ts';
import { EVENT_TYPES, type EventType } from './envelope.ts';

/**
 * The event catalogue: the payload (`data`) of each event type, version '1' (docs/events.md, and
 * the JSON Schemas in docs/events/ generated from these by `npm run events:schemas`). Payloads are
 * small and public-safe: ids, names, titles and times; never an email, a secret, a stream key or
 * a counter. A field is only ever added to a version; anything else is a new version.
 */

/** The payload version every type has today (`version` of the envelope). */
export const EVENT_VERSION = '1';

const id = (what: string, example: string) => described(z.string(), what, example);
const instant = (what: string, example: string) => described(z.iso.datetime(), what, example);
const text = (what: string, example: string) => described(z.string(), what, example);

const creatorFields = () => ({
  creator_id: id('The creator (and channel owner) the event is about.', 'cr_0001'),
  slug: text("The creator's public handle (the slug of their channel URL).", 'maya_lopez'),
  name: text("The creator's display name.", 'Maya Lopez'),
});

/** The creator profile fields whose change is a `creator.updated` (what viewers see). */
export const CREATOR_PUBLIC_FIELDS = [
  'name',
  'slug',
  'description',
  'avatar_url',
  'avatar_color',
  'category',
  'tier',
  'is_verified',
  'channel_name',
  'requires_subscription',
] as const;

/** Program fields whose change is a `program.changed`. */
export const PROGRAM_PUBLIC_FIELDS = [
  'title',
  'description',
  'start',
  'end',
  'rating',
  'content_type',
  'content_id',
  'thumbnail_url',
] as const;

const programFields = () => ({
  program_id: id('The program.', 'pg_0001_0001'),
  channel_id: id('The channel it is on.', 'ch_0001'),
  creator_id: id("The channel's creator.", 'cr_0001'),
  title: text("The program's title.", 'Morning Show'),
  start: instant('When it starts (UTC).', '2026-11-24T18:00:00.000Z'),
  end: instant('When it ends (UTC).', '2026-11-24T19:00:00.000Z'),
  rating: z.enum(RATING_IDS),
  content_type: described(
    z.nullable(z.enum(['show', 'episode'])),
    'What it plays from the catalogue, or null for a program without catalogue content.',
    'episode',
  ),
  content_id: described(z.nullable(z.string()), 'The show or episode it plays, or null.', 'ep_0001_s1e01'),
});

/** Every chat moderation event: who acted on which channel, when (docs/chat.md "Moderation"). */
const chatFields = () => ({
  creator_id: id('The channel (its creator).', 'cr_0001'),
  by: id('Who acted: the creator or one of their moderators (an opaque account id).', 'acc_0001'),
  at: instant('When.', '2026-11-29T18:00:00.000Z'),
});
const chatTarget = () => id('The account acted on (an opaque account id).', 'acc_0002');

/** The payload schema of each event type (`data` of the envelope). */
export const EVENT_PAYLOADS = /* @__PURE__ */ (() =>
  ({
    'creator.live': z.object({
      ...creatorFields(),
      channel_id: id("The creator's channel.", 'ch_0001'),
      stream_id: id('The live stream (IVS stream session).', 'st-1AbCdEfGhIjK'),
      title: text("The stream's title.", 'Friday night jam'),
      started_at: instant('When the stream started.', '2026-11-24T18:00:05.000Z'),
    }),
    'creator.offline': z.object({
      ...creatorFields(),
      channel_id: id("The creator's channel.", 'ch_0001'),
      stream_id: id('The stream that ended.', 'st-1AbCdEfGhIjK'),
      started_at: instant('When that stream started.', '2026-11-24T18:00:05.000Z'),
      ended_at: instant('When the platform saw it end.', '2026-11-24T19:02:11.000Z'),
    }),
    'creator.updated': z.object({
      ...creatorFields(),
      changed: described(
        z.array(z.enum(CREATOR_PUBLIC_FIELDS)),
        'The public profile fields that changed (their new values are on GET /creators/{id}).',
        ['name', 'description'],
      ),
    }),
    'show.published': z.object({
      show_id: id('The new show.', 'sh_0001'),
      creator_id: id("The show's creator.", 'cr_0001'),
      slug: text("The show's slug.", 'late_night_laughs'),
      title: text("The show's title.", 'Late Night Laughs'),
      category: z.enum(CATEGORY_IDS),
      rating: z.enum(RATING_IDS),
      released_at: instant('Its release date.', '2026-11-24T00:00:00.000Z'),
    }),
    'episode.published': z.object({
      episode_id: id('The new episode.', 'ep_0001_s1e01'),
      show_id: id('Its show.', 'sh_0001'),
      creator_id: id("The show's creator.", 'cr_0001'),
      season: described(z.number().check(z.int()), 'Season number.', 1),
      episode_number: described(z.number().check(z.int()), 'Episode number in the season.', 1),
      title: text("The episode's title.", 'Pilot'),
      duration_seconds: described(z.number(), 'Running time in seconds.', 1320),
      access: z.enum(['free', 'premium', 'ppv']),
      air_date: instant('Its air date.', '2026-11-24T00:00:00.000Z'),
    }),
    'program.scheduled': z.object(programFields()),
    'program.changed': z.object({
      ...programFields(),
      status: described(
        z.enum(['scheduled', 'removed']),
        '`scheduled`: the program is on the schedule as described (start and end are its new times); `removed`: it was taken off the schedule (start and end are the slot it had).',
        'scheduled',
      ),
      changed: described(
        z.array(z.enum(PROGRAM_PUBLIC_FIELDS)),
        'The fields that changed (all of them for `removed`).',
        ['start', 'end'],
      ),
      previous_start: z.optional(instant('Where it started before a move.', '2026-11-24T17:00:00.000Z')),
      previous_end: z.optional(instant('Where it ended before a move.', '2026-11-24T18:00:00.000Z')),
    }),
    'subscription.created': z.object({
      creator_id: id('The creator subscribed to.', 'cr_0001'),
      account_id: id('The subscriber (an opaque account id; no email or name).', 'acc_0001'),
      subscribed_at: instant('When the subscription started.', '2026-11-24T18:00:00.000Z'),
      renewal_date: instant('When it renews.', '2026-12-24T18:00:00.000Z'),
    }),
    'subscription.cancelled': z.object({
      creator_id: id('The creator.', 'cr_0001'),
      account_id: id('The subscriber (an opaque account id).', 'acc_0001'),
      subscribed_at: instant('When the subscription started.', '2026-11-24T18:00:00.000Z'),
      access_until: instant(
        'Access continues until then (the renewal date); no renewal follows.',
        '2026-12-24T18:00:00.000Z',
      ),
    }),
    'subscription.renewed': z.object({
      creator_id: id('The creator.', 'cr_0001'),
      account_id: id('The subscriber (an opaque account id).', 'acc_0001'),
      renewal_date: instant('The new end of the paid period (the next renewal).', '2027-01-24T18:00:00.000Z'),
    }),
    'subscription.past_due': z.object({
      creator_id: id('The creator.', 'cr_0001'),
      account_id: id('The subscriber (an opaque account id).', 'acc_0001'),
      grace_until: instant(
        'A renewal payment failed: access holds until then unless a retry succeeds.',
        '2026-12-31T18:00:00.000Z',
      ),
    }),
    'subscription.expired': z.object({
      creator_id: id('The creator.', 'cr_0001'),
      account_id: id('The former subscriber (an opaque account id).', 'acc_0001'),
      ended_at: instant('When access ended.', '2026-12-24T18:00:00.000Z'),
    }),
    'purchase.completed': z.object({
      creator_id: id("The item's creator.", 'cr_0001'),
      account_id: id('The buyer (an opaque account id).', 'acc_0001'),
      content_id: id('The pay-per-view item bought.', 'ep_0001_s1e01'),
      purchased_at: instant('When it was paid.', '2026-11-24T18:00:00.000Z'),
    }),
    'purchase.refunded': z.object({
      creator_id: id("The item's creator.", 'cr_0001'),
      account_id: id('The buyer (an opaque account id).', 'acc_0001'),
      content_id: id('The item, locked again for the buyer.', 'ep_0001_s1e01'),
      reason: described(
        z.enum(['refund', 'dispute']),
        '`refund`: refunded in full; `dispute`: the payment is disputed (a won dispute unlocks it again, without a new event).',
        'refund',
      ),
    }),
    'account.deleted': z.object({
      account_id: id(
        'The deleted account (an opaque id; also its creator id when it was a creator).',
        'acc_0001',
      ),
      deleted_at: instant(
        'When its owner deleted it; its data is purged within 30 minutes.',
        '2026-11-29T10:00:00.000Z',
      ),
    }),
    'chat.user_banned': z.object({
      ...chatFields(),
      account_id: chatTarget(),
      reason: text('Why.', 'spam'),
      duration_seconds: described(
        z.nullable(z.number().check(z.int())),
        'A timeout of this many seconds; null: banned until lifted.',
        600,
      ),
    }),
    'chat.user_unbanned': z.object({ ...chatFields(), account_id: chatTarget() }),
    'chat.message_deleted': z.object({
      ...chatFields(),
      message_id: id('The IVS Chat message.', 'QpUjHvz7Vcc7'),
      reason: described(z.nullable(z.string()), 'Why, when given.', 'spam'),
    }),
    'chat.moderator_added': z.object({ ...chatFields(), account_id: chatTarget() }),
    'chat.moderator_removed': z.object({ ...chatFields(), account_id: chatTarget() }),
    'chat.settings_changed': z.object({ ...chatFields() }),
  }) as const satisfies Record<EventType, z.ZodMiniObject>)();

export type EventPayload<T extends EventType> = z.infer<(typeof EVENT_PAYLOADS)[T]>;

/** One event of type `T`, as the publisher builds it: the envelope with `data` typed. */
export interface TypedEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  version: typeof EVENT_VERSION;
  time: string;
  creator_id: string;
  data: EventPayload<T>;
}

/** The one-line description of each type (docs and the JSON Schemas' titles). */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'creator.live': "A creator's channel went live (a new stream started).",
  'creator.offline': "A creator's live stream ended.",
  'creator.updated':
    "A creator's public profile changed (name, handle, description, avatar, category, tier, channel).",
  'show.published': 'A creator published a new show.',
  'episode.published': 'A new episode appeared (a studio upload or a live stream recorded on demand).',
  'program.scheduled': "A program was put on a creator's channel schedule (EPG).",
  'program.changed': 'A scheduled program changed: retitled, moved in time, re-linked, or removed.',
  'subscription.created':
    'A viewer subscribed to a creator (private: only that creator may subscribe to it).',
  'subscription.cancelled':
    'A viewer cancelled their subscription to a creator: it ends at the end of the paid period (private).',
  'subscription.renewed': 'A subscription renewal was paid: the paid period moved on (private).',
  'subscription.past_due':
    'A subscription renewal payment failed: access holds through the grace period (private).',
  'subscription.expired': 'A subscription ended: the viewer lost access to the premium content (private).',
  'purchase.completed': 'A viewer bought a pay-per-view item (private).',
  'purchase.refunded':
    'A pay-per-view purchase was refunded in full or disputed: the item is locked again (private).',
  'account.deleted':
    'An account was deleted by its owner: consumers delete what they keep about it (private: only the account itself, as a creator, may subscribe).',
  'chat.user_banned': "An account was banned or timed out from a channel's chat (private).",
  'chat.user_unbanned': 'A chat ban was lifted (private).',
  'chat.message_deleted': 'A chat message was deleted by the creator or a moderator (private).',
  'chat.moderator_added': 'A creator appointed a chat moderator (private).',
  'chat.moderator_removed': 'A creator removed a chat moderator (private).',
  'chat.settings_changed': "A channel's chat rules changed: slow mode, modes or blocked terms (private).",
};

/** Is `type`'s visibility public (any approved partner may subscribe) or private? */
export const visibilityOf = (type: EventType) => EVENT_TYPES[type];

/** The whole event of one type (the envelope with its `type`, `version` and `data` pinned): what docs/events/*.json describe. */
export const eventSchemaOf = <T extends EventType>(type: T) =>
  z.object({
    id: described(
      z.string().check(z.minLength(1), z.maxLength(128)),
      "Stable across retries of the same change: the consumer's idempotency key (the webhook-id).",
      'evt_Qm9vX3Jvb2tzX2FyZV9ncmVhdF8xMjM',
    ),
    type: z.literal(type),
    version: z.literal(EVENT_VERSION),
    time: instant('When the change happened (UTC).', '2026-11-24T18:00:05.000Z'),
    creator_id: id('The creator the event is about (what a subscription condition matches).', 'cr_0001'),
    data: EVENT_PAYLOADS[type],
  });
