import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { EVENT_PAYLOADS } from '../../shared/events/catalog.ts';
import { paymentFactsOf } from '../../shared/analytics/payment-facts.ts';
import { ENTITLEMENT_OBJECT_ENTITY } from '../../shared/entitlements/entitlement-repository.ts';
import { eventsOfBatch, eventsOfRecord, PUBLISHED_ENTITIES } from '../../shared/events/changes.ts';
import { PROJECTED_ENTITIES } from '../../shared/projection/projector.ts';
import { PlatformEvent } from '../../shared/events/envelope.ts';
import { TABLE } from '../../shared/db/table.ts';
import { programKey } from '../../shared/epg/program-repository.ts';
import { change, creator, episode, live, program, purchase, show, subscription } from './records.ts';

const types = (record: DynamoDBRecord) => eventsOfRecord(record).map((e) => e.type);

/** Every event is a valid envelope with a payload its type's schema accepts. */
const valid = (record: DynamoDBRecord) => {
  const events = eventsOfRecord(record);
  for (const event of events) {
    expect(PlatformEvent.safeParse(event).success).toBe(true);
    expect(EVENT_PAYLOADS[event.type].safeParse(event.data).error?.issues ?? []).toEqual([]);
  }
  return events;
};

describe('creator changes', () => {
  it('going live is one creator.live with the stream, coming off air one creator.offline', () => {
    const [wentLive] = valid(change(creator(), creator({ live, version: 4 })));
    expect(wentLive).toMatchObject({
      type: 'creator.live',
      version: '1',
      creator_id: 'cr_0001',
      time: '2026-11-18T11:06:40.000Z',
      data: { creator_id: 'cr_0001', channel_id: 'ch_0001', stream_id: 'st-abc', title: 'Friday jam' },
    });
    const [ended] = valid(change(creator({ live }), creator({ live: null, version: 5 })));
    expect(ended).toMatchObject({
      type: 'creator.offline',
      data: { stream_id: 'st-abc', started_at: live.started_at, ended_at: '2026-11-18T11:06:40.000Z' },
    });
  });

  it('a new stream without an offline in between: offline for the old one, then live', () => {
    expect(types(change(creator({ live }), creator({ live: { ...live, stream_id: 'st-new' } })))).toEqual([
      'creator.offline',
      'creator.live',
    ]);
  });

  it('public profile edits are creator.updated naming the fields; counters, viewers and live titles are not', () => {
    const [updated] = valid(
      change(
        creator(),
        creator({
          name: 'Maya L.',
          channel: {
            channel_id: 'ch_0001',
            channel_name: 'New',
            channel_number: 1,
            requires_subscription: false,
          },
        }),
      ),
    );
    expect(updated).toMatchObject({
      type: 'creator.updated',
      data: { name: 'Maya L.', changed: ['name', 'channel_name'] },
    });
    expect(types(change(creator(), creator({ subscribers: 11, watching_now: 40, version: 4 })))).toEqual([]);
    expect(types(change(creator({ live }), creator({ live: { ...live, title: 'new title' } })))).toEqual([]);
  });

  it('a suspended creator announces nothing but the end of its stream; a new creator is no update', () => {
    const suspended = { suspended_at: '2026-11-24T00:00:00.000Z' };
    expect(types(change(creator(), creator({ ...suspended, name: 'X' })))).toEqual([]);
    expect(types(change(creator(suspended), creator({ ...suspended, live })))).toEqual([]);
    expect(types(change(creator({ ...suspended, live }), creator(suspended)))).toEqual(['creator.offline']);
    expect(types(change(undefined, creator()))).toEqual([]);
  });
});

describe('catalogue changes', () => {
  it('a new show is show.published, a new episode episode.published; edits and deletions are neither', () => {
    const [published] = valid(change(undefined, show()));
    expect(published).toMatchObject({
      type: 'show.published',
      data: { show_id: 'sh_0001', title: 'Late Night' },
    });
    const [aired] = valid(change(undefined, episode()));
    expect(aired).toMatchObject({
      type: 'episode.published',
      data: { episode_id: 'ep_0001_s1e01', season: 1 },
    });
    expect(types(change(show(), show({ title: 'Renamed', version: 2 })))).toEqual([]);
    expect(types(change(episode(), undefined))).toEqual([]);
    expect(types(change(undefined, show({ creator_suspended: true })))).toEqual([]);
  });

  it('a program put on the schedule is program.scheduled; an edit program.changed with the fields', () => {
    const [scheduled] = valid(change(undefined, program()));
    expect(scheduled).toMatchObject({
      type: 'program.scheduled',
      data: { program_id: 'pg_1', content_type: 'episode' },
    });
    const [changed] = valid(change(program(), program({ title: 'Evening', version: 2 })));
    expect(changed).toMatchObject({
      type: 'program.changed',
      data: { status: 'scheduled', changed: ['title'] },
    });
    expect(types(change(program(), program({ version: 2 })))).toEqual([]);
    const [removed] = valid(change(program({ version: 2 }), undefined));
    expect(removed).toMatchObject({ type: 'program.changed', data: { status: 'removed' } });
  });

  it('a program without catalogue content says null, not its own id', () => {
    const [scheduled] = valid(change(undefined, program({ content_type: 'show', content_id: 'pg_1' })));
    expect(scheduled?.data).toMatchObject({ content_type: null, content_id: null });
  });

  it('a move (delete and put in one transaction) in one batch is one program.changed with the previous slot', () => {
    const moved = program({
      ...programKey('ch_0001', '2026-11-24T20:00:00.000Z'),
      start: '2026-11-24T20:00:00.000Z',
      end: '2026-11-24T21:00:00.000Z',
      version: 3,
    });
    const batch = [change(program({ version: 2 }), undefined), change(undefined, moved)];
    const events = eventsOfBatch(batch);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      record: 1,
      event: {
        type: 'program.changed',
        data: { status: 'scheduled', changed: ['start', 'end'], previous_start: '2026-11-24T18:00:00.000Z' },
      },
    });
    // Split over two batches: a removal, then the program at its new time.
    expect(eventsOfBatch(batch.slice(0, 1)).map((e) => e.event.data)).toMatchObject([{ status: 'removed' }]);
    expect(eventsOfBatch(batch.slice(1)).map((e) => e.event.type)).toEqual(['program.changed']);
  });
});

describe('entitlement changes (docs/payments.md)', () => {
  it('a subscription: created, renewed, past_due, cancelled at period end, expired', () => {
    const [created] = valid(change(undefined, subscription('active')));
    expect(created).toMatchObject({
      type: 'subscription.created',
      creator_id: 'cr_0001',
      data: { account_id: 'acc_1', renewal_date: '2026-12-24T10:00:00.000Z' },
    });
    expect(types(change(subscription('expired'), subscription('active')))).toEqual(['subscription.created']);
    expect(types(change(subscription('pending'), subscription('active')))).toEqual(['subscription.created']);
    expect(
      valid(
        change(subscription('active'), subscription('active', { valid_until: '2027-01-24T10:00:00.000Z' })),
      ),
    ).toMatchObject([{ type: 'subscription.renewed', data: { renewal_date: '2027-01-24T10:00:00.000Z' } }]);
    expect(
      valid(
        change(subscription('active'), subscription('past_due', { grace_until: '2026-12-31T10:00:00.000Z' })),
      ),
    ).toMatchObject([{ type: 'subscription.past_due', data: { grace_until: '2026-12-31T10:00:00.000Z' } }]);
    expect(
      valid(change(subscription('active'), subscription('active', { cancel_at_period_end: true }))),
    ).toMatchObject([{ type: 'subscription.cancelled', data: { access_until: '2026-12-24T10:00:00.000Z' } }]);
    expect(types(change(subscription('past_due'), subscription('expired')))).toEqual([
      'subscription.expired',
    ]);
  });

  it("a provider object's item makes no event, no payment fact and reaches neither stream function", async () => {
    // One item per provider object beside the entitlement (docs/payments.md): only the
    // entitlement item's images are the subscriber's story.
    const object = (status: string) => ({
      ...subscription(status, { provider: { subscription_id: 'sub_1' } }),
      SK: 'ENTSRC#cr_0001#SUB#stripe#sub_1',
      entity: ENTITLEMENT_OBJECT_ENTITY,
    });
    for (const record of [
      change(undefined, object('active')),
      change(object('active'), object('expired')),
      change(object('active'), undefined),
    ]) {
      expect(types(record)).toEqual([]);
      expect(await paymentFactsOf(record, new Date())).toEqual([]);
    }
    // The same change of the entitlement item is an event: the filter is the entity alone.
    expect(types(change(subscription('active'), subscription('expired')))).toEqual(['subscription.expired']);
    expect(PUBLISHED_ENTITIES).not.toContain(ENTITLEMENT_OBJECT_ENTITY);
    expect(PROJECTED_ENTITIES).not.toContain(ENTITLEMENT_OBJECT_ENTITY);
  });

  it('the same state rewritten (a replayed webhook) is no event', () => {
    expect(types(change(subscription('active'), subscription('active', { observed_at: 2 })))).toEqual([]);
    expect(types(change(subscription('expired'), subscription('expired')))).toEqual([]);
    expect(types(change(subscription('active'), undefined))).toEqual([]);
  });

  it('a purchase: completed once paid, refunded when refunded or disputed; a won dispute is no event', () => {
    expect(valid(change(undefined, purchase('active')))).toMatchObject([
      { type: 'purchase.completed', data: { content_id: 'ep_0001_s1e03' } },
    ]);
    expect(valid(change(purchase('active'), purchase('refunded')))).toMatchObject([
      { type: 'purchase.refunded', data: { reason: 'refund' } },
    ]);
    expect(valid(change(purchase('active'), purchase('disputed')))).toMatchObject([
      { type: 'purchase.refunded', data: { reason: 'dispute' } },
    ]);
    expect(types(change(purchase('disputed'), purchase('active')))).toEqual([]);
  });
});

describe('irrelevant changes and ids', () => {
  it('views, view sets, markers, sessions, accounts and follows make no event', () => {
    for (const entity of ['view', 'watch_session', 'account', 'follow', 'playback', 'reaction', undefined])
      expect(
        types(change(undefined, { [TABLE.partitionKey]: 'X#1', [TABLE.sortKey]: 'Y', entity, live })),
      ).toEqual([]);
  });

  it('a replayed record makes the same ids; another change of the same item other ids', () => {
    const record = change(creator(), creator({ live, version: 4 }), '555');
    const first = eventsOfRecord(record);
    const replay = eventsOfRecord(structuredClone(record));
    expect(replay).toEqual(first);
    expect(first[0]?.id).toMatch(/^evt_[A-Za-z0-9_-]{32}$/);
    const again = eventsOfRecord(change(creator(), creator({ live, version: 4 }), '556'));
    expect(again[0]?.id).not.toBe(first[0]?.id);
    // Two events of one record differ by type.
    const both = eventsOfRecord(
      change(creator({ live }), creator({ live: { ...live, stream_id: 's2' } }), '557'),
    );
    expect(new Set(both.map((e) => e.id)).size).toBe(2);
  });
});

describe('a malformed item', () => {
  it('makes no event and is reported, without stopping the rest of the batch', () => {
    const broken = change(creator({ live }), { ...creator(), channel: undefined, live: null });
    expect(() => eventsOfRecord(broken)).toThrow();
    const told: string[] = [];
    const events = eventsOfBatch([broken, change(undefined, show())], (record) =>
      told.push(String(record.eventID)),
    );
    expect(told).toEqual([broken.eventID]);
    expect(events.map((e) => [e.record, e.event.type])).toEqual([[1, 'show.published']]);
  });
});
