import { clock } from '../clock.ts';
import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import {
  type CreatorRecord,
  type EpisodeRecord,
  type ProgramRecord,
  programContent,
  type ShowRecord,
} from '../catalog/model.ts';
import type { ChatAction } from '../chat/chat-repository.ts';
import { keyValues } from '../db/key.ts';
import type { EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import {
  CREATOR_PUBLIC_FIELDS,
  EVENT_VERSION,
  type EventPayload,
  PROGRAM_PUBLIC_FIELDS,
  type TypedEvent,
} from './catalog.ts';
import type { EventType } from './envelope.ts';

/**
 * From table changes to domain events (docs/events.md): a pure function of one stream record
 * (both images), so a retried batch maps to the very same events, ids included.
 *
 * **Ids.** An event's id is a hash of the changed item's key, the stream record's sequence number
 * and the event type: stable across every re-delivery of the record (retries, bisection, a
 * replay from TRIM_HORIZON), different for every other change. The item's `version` alone would
 * not do: some writes leave it alone, subscriptions have none, and a key deleted and written
 * again (a program at the same start) starts again at version 1.
 */

/** The `entity` values whose changes can make events (also the event source mapping's filter). */
export const PUBLISHED_ENTITIES = [
  'creator',
  'show',
  'episode',
  'program',
  'entitlement',
  'account',
  'chat-action',
] as const;

type Item = Record<string, unknown>;

const imageOf = (image: Record<string, LambdaAttributeValue> | undefined): Item | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

/** The event id of `type` made from the change `record` of the item `key`. */
export const eventIdOf = (record: DynamoDBRecord, key: Item, type: EventType): string => {
  const change = record.dynamodb?.SequenceNumber ?? record.eventID;
  if (!change) throw new Error('A stream record without SequenceNumber or eventID cannot name its events');
  const [partition, sort] = keyValues(key);
  const digest = createHash('sha256')
    .update(`${partition}\u0000${sort}\u0000${change}\u0000${type}`)
    .digest('base64url');
  return `evt_${digest.slice(0, 32)}`;
};

/** When the change happened: the record's creation time (stable across re-deliveries). */
const timeOf = (record: DynamoDBRecord): string => {
  const seconds = record.dynamodb?.ApproximateCreationDateTime;
  return (seconds === undefined ? clock.now() : new Date(seconds * 1000)).toISOString();
};

const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

interface Change {
  record: DynamoDBRecord;
  before?: Item;
  after?: Item;
}

const make = <T extends EventType>(
  change: Change,
  type: T,
  creatorId: string,
  data: EventPayload<T>,
): TypedEvent<T> => {
  const key = (change.after ?? change.before) as Item;
  return {
    id: eventIdOf(change.record, key, type),
    type,
    version: EVENT_VERSION,
    time: timeOf(change.record),
    creator_id: creatorId,
    data,
  };
};

// ── Creators ─────────────────────────────────────────────────────────────────────────────────

const creatorPublicValue = (c: CreatorRecord, field: (typeof CREATOR_PUBLIC_FIELDS)[number]): unknown =>
  field === 'channel_name' || field === 'requires_subscription' ? c.channel?.[field] : c[field];

const creatorEvents = (change: Change): TypedEvent[] => {
  const before = change.before as CreatorRecord | undefined;
  const after = change.after as CreatorRecord | undefined;
  if (!after) return []; // a creator item is never deleted; nothing public to say if it were
  const who = { creator_id: after.id, slug: after.slug, name: after.name };
  const events: TypedEvent[] = [];
  const wasLive = before?.live ?? null;
  const isLive = after.live ?? null;
  const streamChanged = wasLive && isLive && wasLive.stream_id !== isLive.stream_id;
  // The stream ended (or was replaced by another without an offline in between): announced even
  // while suspended (a moderation stop ends the stream a viewer may be watching).
  if (wasLive && (!isLive || streamChanged))
    events.push(
      make(change, 'creator.offline', after.id, {
        ...who,
        channel_id: after.channel.channel_id,
        stream_id: wasLive.stream_id,
        started_at: wasLive.started_at,
        ended_at: timeOf(change.record),
      }),
    );
  const suspended = Boolean(after.suspended_at);
  if (isLive && (!wasLive || streamChanged) && !suspended)
    events.push(
      make(change, 'creator.live', after.id, {
        ...who,
        channel_id: after.channel.channel_id,
        stream_id: isLive.stream_id,
        title: isLive.title,
        started_at: isLive.started_at,
      }),
    );
  // Profile edits of a visible creator (a new creator from onboarding is not an update).
  if (before && !suspended && !before.suspended_at) {
    const changed = CREATOR_PUBLIC_FIELDS.filter((field) =>
      differs(creatorPublicValue(before, field), creatorPublicValue(after, field)),
    );
    if (changed.length > 0) events.push(make(change, 'creator.updated', after.id, { ...who, changed }));
  }
  return events;
};

// ── Shows and episodes ───────────────────────────────────────────────────────────────────────

const showEvents = ({ before, after, ...change }: Change): TypedEvent[] => {
  if (before || !after || after.creator_suspended) return [];
  const show = after as unknown as ShowRecord;
  return [
    make({ ...change, after }, 'show.published', show.creator_id, {
      show_id: show.id,
      creator_id: show.creator_id,
      slug: show.slug,
      title: show.title,
      category: show.category,
      rating: show.rating,
      released_at: show.released_at,
    }),
  ];
};

const episodeEvents = ({ before, after, ...change }: Change): TypedEvent[] => {
  if (before || !after || after.creator_suspended) return [];
  const episode = after as unknown as EpisodeRecord;
  return [
    make({ ...change, after }, 'episode.published', episode.creator_id, {
      episode_id: episode.id,
      show_id: episode.show_id,
      creator_id: episode.creator_id,
      season: episode.season,
      episode_number: episode.episode_number,
      title: episode.title,
      duration_seconds: episode.duration_seconds,
      access: episode.access,
      air_date: episode.air_date,
    }),
  ];
};

// ── Programs ─────────────────────────────────────────────────────────────────────────────────

/** A program's public fields; one without catalogue content has null content (programContent). */
const programPublic = (p: ProgramRecord) => {
  return {
    program_id: p.program_id,
    channel_id: p.channel_id,
    creator_id: p.creator_id,
    title: p.title,
    start: new Date(p.start).toISOString(),
    end: new Date(p.end).toISOString(),
    rating: p.rating,
    ...programContent(p),
  };
};

const programChanges = (before: ProgramRecord, after: ProgramRecord) =>
  PROGRAM_PUBLIC_FIELDS.filter((field) => differs(before[field], after[field]));

const programEvents = (change: Change): TypedEvent[] => {
  const before = change.before as ProgramRecord | undefined;
  const after = change.after as (ProgramRecord & { version?: number }) | undefined;
  if (after && !before) {
    // A new program is written at version 1; a higher version is the new half of a move (the
    // transaction deletes the old key and puts the new one), paired in eventsOfBatch when both
    // halves are in one batch.
    if ((after.version ?? 1) <= 1)
      return [make(change, 'program.scheduled', after.creator_id, programPublic(after))];
    return [
      make(change, 'program.changed', after.creator_id, {
        ...programPublic(after),
        status: 'scheduled',
        changed: ['start', 'end'],
      }),
    ];
  }
  if (after && before) {
    const changed = programChanges(before, after);
    if (changed.length === 0) return [];
    return [
      make(change, 'program.changed', after.creator_id, {
        ...programPublic(after),
        status: 'scheduled',
        changed,
      }),
    ];
  }
  if (before)
    return [
      make(change, 'program.changed', before.creator_id, {
        ...programPublic(before),
        status: 'removed',
        changed: [...PROGRAM_PUBLIC_FIELDS],
      }),
    ];
  return [];
};

// ── Entitlements (subscriptions and purchases) ───────────────────────────────────────────────

const HOLDS = new Set(['active', 'past_due']);

/**
 * A subscription's transitions, from the two images of its entitlement (docs/payments.md, "State
 * machine"): `created` when it first holds (or holds again after expiring), `renewed` when a paid
 * period moves `valid_until` on, `past_due` when a renewal fails, `cancelled` when it is set to
 * end at period end, `expired` when it ends.
 */
const subscriptionEvents = (
  change: Change,
  before: EntitlementRecord | undefined,
  after: EntitlementRecord,
) => {
  const who = { creator_id: after.creator_id, account_id: after.account_id };
  const until = after.valid_until ?? after.started_at;
  const events: TypedEvent[] = [];
  const held = before !== undefined && HOLDS.has(before.status);
  if (after.status === 'active' && !held)
    events.push(
      make(change, 'subscription.created', after.creator_id, {
        ...who,
        subscribed_at: after.started_at,
        renewal_date: until,
      }),
    );
  else if (after.status === 'active' && held && (before.valid_until ?? '') < until)
    events.push(make(change, 'subscription.renewed', after.creator_id, { ...who, renewal_date: until }));
  if (after.status === 'past_due' && before?.status !== 'past_due')
    events.push(
      make(change, 'subscription.past_due', after.creator_id, {
        ...who,
        grace_until: after.grace_until ?? until,
      }),
    );
  if (HOLDS.has(after.status) && after.cancel_at_period_end && !(held && before.cancel_at_period_end))
    events.push(
      make(change, 'subscription.cancelled', after.creator_id, {
        ...who,
        subscribed_at: after.started_at,
        access_until: until,
      }),
    );
  if (after.status === 'expired' && before !== undefined && before.status !== 'expired')
    events.push(make(change, 'subscription.expired', after.creator_id, { ...who, ended_at: until }));
  return events;
};

/** A purchase completes when it first grants; it is refunded when a refund or a dispute takes it back. */
const purchaseEvents = (change: Change, before: EntitlementRecord | undefined, after: EntitlementRecord) => {
  const who = {
    creator_id: after.creator_id,
    account_id: after.account_id,
    content_id: after.content_id ?? '',
  };
  if (after.status === 'active' && (before === undefined || before.status === 'pending'))
    return [make(change, 'purchase.completed', after.creator_id, { ...who, purchased_at: after.started_at })];
  if ((after.status === 'refunded' || after.status === 'disputed') && before?.status === 'active')
    return [
      make(change, 'purchase.refunded', after.creator_id, {
        ...who,
        reason: after.status === 'refunded' ? ('refund' as const) : ('dispute' as const),
      }),
    ];
  return [];
};

const entitlementEvents = (change: Change): TypedEvent[] => {
  const before = change.before as EntitlementRecord | undefined;
  const after = change.after as EntitlementRecord | undefined;
  if (!after) return [];
  return after.kind === 'subscription'
    ? subscriptionEvents(change, before, after)
    : purchaseEvents(change, before, after);
};

// ── Accounts ─────────────────────────────────────────────────────────────────────────────────

/** `account.deleted` when the account gets its tombstone (`DELETE /me`; docs/accounts.md). */
const accountEvents = ({ before, after, ...change }: Change): TypedEvent[] => {
  if (!after?.deleted_at || before?.deleted_at) return [];
  const accountId = String(after.account_id);
  return [
    make({ ...change, after }, 'account.deleted', accountId, {
      account_id: accountId,
      deleted_at: String(after.deleted_at),
    }),
  ];
};

// ── Chat moderation ──────────────────────────────────────────────────────────────────────────

/** A moderation action's record (written once, never changed) is its event (shared/chat/chat-repository.ts). */
const chatEvents = ({ before, after, ...change }: Change): TypedEvent[] => {
  if (before || !after) return [];
  const a = after as unknown as ChatAction;
  const common = { creator_id: a.creator_id, by: a.by, at: a.at };
  const target = a.target_account_id ?? '';
  const made = (() => {
    switch (a.action) {
      case 'user_banned':
        return make({ ...change, after }, 'chat.user_banned', a.creator_id, {
          ...common,
          account_id: target,
          reason: a.reason ?? '',
          duration_seconds: a.duration_seconds,
        });
      case 'user_unbanned':
        return make({ ...change, after }, 'chat.user_unbanned', a.creator_id, {
          ...common,
          account_id: target,
        });
      case 'message_deleted':
        return make({ ...change, after }, 'chat.message_deleted', a.creator_id, {
          ...common,
          message_id: a.message_id ?? '',
          reason: a.reason,
        });
      case 'moderator_added':
        return make({ ...change, after }, 'chat.moderator_added', a.creator_id, {
          ...common,
          account_id: target,
        });
      case 'moderator_removed':
        return make({ ...change, after }, 'chat.moderator_removed', a.creator_id, {
          ...common,
          account_id: target,
        });
      case 'settings_changed':
        return make({ ...change, after }, 'chat.settings_changed', a.creator_id, common);
      default:
        return undefined;
    }
  })();
  return made ? [made] : [];
};

const BY_ENTITY: Record<(typeof PUBLISHED_ENTITIES)[number], (change: Change) => TypedEvent[]> = {
  creator: creatorEvents,
  show: showEvents,
  episode: episodeEvents,
  program: programEvents,
  entitlement: entitlementEvents,
  account: accountEvents,
  'chat-action': chatEvents,
};

const changeOf = (record: DynamoDBRecord): Change => ({
  record,
  before: imageOf(record.dynamodb?.OldImage),
  after: imageOf(record.dynamodb?.NewImage),
});

/** The events one change makes (none for entities or changes nobody is told about). */
export const eventsOfRecord = (record: DynamoDBRecord): TypedEvent[] => {
  const change = changeOf(record);
  const entity = String((change.after ?? change.before)?.entity);
  const map = BY_ENTITY[entity as keyof typeof BY_ENTITY];
  return map ? map(change) : [];
};

/** An event with the index (in its batch) of the record it came from. */
export interface BatchEvent {
  record: number;
  event: TypedEvent;
}

/**
 * The events of a batch, in record order. A program moved in time is one transaction that
 * deletes its old key and puts the new one (two records); when both are in the batch they make
 * one `program.changed` (with `previous_start`/`previous_end`, at the put's record) instead of a
 * `removed` and a `scheduled`. Across two batches the two events stay (docs/events.md).
 */
export const eventsOfBatch = (
  records: readonly DynamoDBRecord[],
  /** Told of a record whose images the mapping cannot read (a malformed item): it makes no event. */
  onUnmappable: (record: DynamoDBRecord, error: Error) => void = () => {},
): BatchEvent[] => {
  const out: BatchEvent[] = [];
  /** Program removals of this batch, by program id: their entry in `out` and the removed image. */
  const removals = new Map<string, { entry: BatchEvent; program: ProgramRecord & { version?: number } }>();
  const paired = new Set<BatchEvent>();
  records.forEach((record, index) => {
    const { before, after } = changeOf(record);
    let events: TypedEvent[];
    try {
      events = eventsOfRecord(record);
    } catch (error) {
      // A retry would fail the same way: the record is told about and skipped, never blocks the shard.
      onUnmappable(record, error as Error);
      return;
    }
    for (const event of events) {
      const entry: BatchEvent = { record: index, event };
      out.push(entry);
      if (event.type !== 'program.changed') continue;
      const data = (event as TypedEvent<'program.changed'>).data;
      if (before && !after)
        removals.set(data.program_id, { entry, program: before as unknown as ProgramRecord });
      const removed = removals.get(data.program_id);
      const moved = after as (ProgramRecord & { version?: number }) | undefined;
      if (moved && !before && removed && (moved.version ?? 0) === (removed.program.version ?? 0) + 1) {
        removals.delete(data.program_id);
        paired.add(removed.entry);
        event.data = {
          ...data,
          changed: programChanges(removed.program, moved),
          previous_start: new Date(removed.program.start).toISOString(),
          previous_end: new Date(removed.program.end).toISOString(),
        };
      }
    }
  });
  return out.filter((entry) => !paired.has(entry));
};
