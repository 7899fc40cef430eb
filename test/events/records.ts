import { type EntitlementRecord, entitlementItem } from '../../shared/entitlements/entitlement-repository.ts';
import { marshall } from '@aws-sdk/util-dynamodb';
import { programKey } from '../../shared/epg/program-repository.ts';
import { episodeItemKey, showItemKey } from '../../shared/shows/show-repository.ts';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import { creatorKey } from '../../shared/creators/creator-repository.ts';
import { primaryKey } from '../../shared/db/key.ts';

/** Stream records and source items for the event mapping's tests (test/events). */
type Item = Record<string, unknown>;
let sequence = 1000;

/** A stream record as Lambda delivers it: both images in attribute-value JSON, a sequence number, a time. */
export const change = (
  before: Item | undefined,
  after: Item | undefined,
  seq = String(sequence++),
): DynamoDBRecord => {
  const image = (item: Item | undefined) =>
    item
      ? (marshall(item, { removeUndefinedValues: true }) as Record<string, LambdaAttributeValue>)
      : undefined;
  return {
    eventID: `id-${seq}`,
    eventName: before && after ? 'MODIFY' : after ? 'INSERT' : 'REMOVE',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: image(primaryKey((after ?? before) as Item)),
      NewImage: image(after),
      OldImage: image(before),
      SequenceNumber: seq,
      ApproximateCreationDateTime: 1_795_000_000,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
};

export const creator = (fields: Item = {}): Item => ({
  ...creatorKey('cr_0001'),
  entity: 'creator',
  id: 'cr_0001',
  slug: 'maya_lopez',
  name: 'Maya Lopez',
  description: 'Comedy nights',
  avatar_url: null,
  avatar_color: '#112233',
  category: 'comedy',
  tier: 'gold',
  is_verified: true,
  subscribers: 10,
  watching_now: 0,
  channel: {
    channel_id: 'ch_0001',
    channel_name: 'Maya Live',
    channel_number: 1,
    requires_subscription: false,
  },
  live: null,
  version: 3,
  ...fields,
});
export const live = {
  stream_id: 'st-abc',
  title: 'Friday jam',
  started_at: '2026-11-24T18:00:05.000Z',
  thumbnail_url: 'x',
};

export const show = (fields: Item = {}): Item => ({
  ...showItemKey('sh_0001'),
  entity: 'show',
  id: 'sh_0001',
  slug: 'late_night',
  title: 'Late Night',
  creator_id: 'cr_0001',
  category: 'comedy',
  rating: 'TV-14',
  released_at: '2026-11-24T00:00:00.000Z',
  total_views: 0,
  version: 1,
  ...fields,
});
export const episode = (fields: Item = {}): Item => ({
  ...episodeItemKey('sh_0001', 1, 1),
  entity: 'episode',
  id: 'ep_0001_s1e01',
  show_id: 'sh_0001',
  creator_id: 'cr_0001',
  season: 1,
  episode_number: 1,
  title: 'Pilot',
  duration_seconds: 1320,
  views: 0,
  access: 'free',
  air_date: '2026-11-24T00:00:00.000Z',
  version: 2,
  ...fields,
});
export const program = (fields: Item = {}): Item => ({
  ...programKey('ch_0001', '2026-11-24T18:00:00.000Z'),
  entity: 'program',
  program_id: 'pg_1',
  creator_id: 'cr_0001',
  channel_id: 'ch_0001',
  title: 'Morning',
  description: '',
  thumbnail_url: 'https://cdn.example.com/t.jpg',
  start: '2026-11-24T18:00:00.000Z',
  end: '2026-11-24T19:00:00.000Z',
  content_type: 'episode',
  content_id: 'ep_0001_s1e01',
  rating: 'TV-G',
  version: 1,
  ...fields,
});
/** A subscription entitlement's item (shared/entitlements), `status` and any field given. */
export const subscription = (status: string, fields: Item = {}): Item =>
  entitlementItem({
    account_id: 'acc_1',
    kind: 'subscription',
    creator_id: 'cr_0001',
    content_id: null,
    source: 'stripe',
    status: status as EntitlementRecord['status'],
    valid_until: '2026-12-24T10:00:00.000Z',
    grace_until: null,
    cancel_at_period_end: false,
    started_at: '2026-11-24T10:00:00.000Z',
    observed_at: 1,
    provider: {},
    ...fields,
  });

/** A purchase entitlement's item. */
export const purchase = (status: string, fields: Item = {}): Item =>
  subscription(status, { kind: 'purchase', content_id: 'ep_0001_s1e03', valid_until: null, ...fields });
