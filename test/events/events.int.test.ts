import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '../../shared/db/document.ts';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EventBridgeEvent,
  LOCAL_EVENT_BUS_NAME,
  localBusEvents,
  startLocalEventPublisher,
} from '../../scripts/local/event-bus.ts';
import { runAsFunction } from '../../scripts/local/aws.ts';
import { eventPublisherRow } from '../../functions/events/worker.ts';
import { creatorKey } from '../../shared/creators/creator-repository.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import { EVENT_PAYLOADS } from '../../shared/events/catalog.ts';
import { EVENT_SOURCE, PlatformEvent } from '../../shared/events/envelope.ts';
import { putEvents } from '../../shared/events/publish.ts';
import { functionKey } from '../../shared/routing/function-row.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { allows } from '../../scripts/local/iam.ts';
import { onboardCreator, subscribePaid } from '../support/payments.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { readUsage } from '../support/least-privilege.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

let api: TestApi;
let creator: StudioCreator;
beforeAll(async () => {
  api = await testApi();
  creator = await studioCreator(api, 'music');
  await onboardCreator(api, creator.token, creator.creatorId);
});

/** A creator goes live (or off air) as the IVS reducer writes it: the item's `live`, version + 1. */
const setLive = async (creatorId: string, live: null | { stream_id: string; title: string }) =>
  db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: creatorKey(creatorId),
      UpdateExpression: 'SET live = :live ADD version :one',
      ExpressionAttributeValues: {
        ':live': live && {
          ...live,
          started_at: new Date().toISOString(),
          thumbnail_url: 'https://cdn.example.com/t.jpg',
        },
        ':one': 1,
      },
    }),
  );

/** The events `npm start`'s bus accepted (the platform runs in the global set-up's process). */
const platformEvents = async (detailType: string): Promise<EventBridgeEvent[]> => {
  const res = await fetch(`${process.env.EVENTS_ENDPOINT}/_local/events?detail-type=${detailType}`);
  return ((await res.json()) as { events: EventBridgeEvent[] }).events;
};
const forStream = (events: EventBridgeEvent[], streamId: string) =>
  events.filter((e) => (e.detail.data as { stream_id?: string }).stream_id === streamId);

/** An event as a consumer checks it: the EventBridge form, the envelope, the type's payload. */
const expectValid = (event: EventBridgeEvent | undefined) => {
  expect(event).toMatchObject({ source: EVENT_SOURCE, 'detail-type': event?.detail.type });
  expect(PlatformEvent.safeParse(event?.detail).success).toBe(true);
  const type = event?.detail.type as keyof typeof EVENT_PAYLOADS;
  expect(EVENT_PAYLOADS[type].safeParse(event?.detail.data).error?.issues ?? []).toEqual([]);
};

describe('domain events through npm start (the table stream, the publisher, the local bus)', () => {
  it('a creator going live is exactly one creator.live; coming off air one creator.offline', async () => {
    const streamId = `st-${randomUUID()}`;
    await setLive(creator.creatorId, { stream_id: streamId, title: 'Events test' });
    await waitFor(
      async () => forStream(await platformEvents('creator.live'), streamId).length > 0,
      'creator.live',
    );
    await setLive(creator.creatorId, null);
    await waitFor(
      async () => forStream(await platformEvents('creator.offline'), streamId).length > 0,
      'creator.offline',
    );
    const [live, ...more] = forStream(await platformEvents('creator.live'), streamId);
    expect(more).toEqual([]);
    expectValid(live);
    expect(live?.detail).toMatchObject({
      type: 'creator.live',
      creator_id: creator.creatorId,
      data: { stream_id: streamId, title: 'Events test', slug: creator.handle },
    });
    const offline = forStream(await platformEvents('creator.offline'), streamId);
    expect(offline).toHaveLength(1);
    expectValid(offline[0]);
  });

  it('a subscription is a subscription.created about the creator (no email in it)', async () => {
    const viewerId = `acc_evt_${randomUUID().slice(0, 8)}`;
    const { token } = await issueAccessToken(viewerId, new Date());
    await subscribePaid(api, token, creator.creatorId);
    const mine = async () =>
      (await platformEvents('subscription.created')).filter(
        (e) => (e.detail.data as { account_id?: string }).account_id === viewerId,
      );
    await waitFor(async () => (await mine()).length > 0, 'subscription.created');
    const [created] = await mine();
    expectValid(created);
    expect(created?.detail).toMatchObject({
      creator_id: creator.creatorId,
      data: { creator_id: creator.creatorId },
    });
    expect(JSON.stringify(created)).not.toMatch(/@/);
  });

  it('the seed channels that went live through IVS events at start: one creator.live id per stream', async () => {
    const events = await platformEvents('creator.live');
    expect(events.length).toBeGreaterThan(1);
    const idsByStream = new Map<string, Set<string>>();
    for (const event of events) {
      const stream = String((event.detail.data as { stream_id: string }).stream_id);
      idsByStream.set(stream, (idsByStream.get(stream) ?? new Set()).add(String(event.detail.id)));
    }
    for (const ids of idsByStream.values()) expect(ids.size).toBe(1);
  });
});

describe('replays and failures (a publisher and bus of this test file)', () => {
  let publisher: Awaited<ReturnType<typeof startLocalEventPublisher>>;
  const batches: DynamoDBStreamEvent[] = [];
  beforeAll(async () => {
    publisher = await startLocalEventPublisher({ tableName: tableName(), onBatch: (b) => batches.push(b) });
  });
  afterAll(async () => {
    await publisher?.stop();
  });
  const mine = (streamId: string) =>
    forStream(
      localBusEvents().filter((e) => e['detail-type'] === 'creator.live'),
      streamId,
    );

  it('replaying the batch puts the same event id again (a new EventBridge id)', async () => {
    const streamId = `st-${randomUUID()}`;
    await setLive(creator.creatorId, { stream_id: streamId, title: 'Replay' });
    await publisher.drain();
    expect(mine(streamId)).toHaveLength(1);
    const batch = batches.find((b) => JSON.stringify(b).includes(streamId));
    expect(batch).toBeDefined();
    expect(await publisher.invoke(batch!)).toEqual({ batchItemFailures: [] });
    await publisher.drain();
    const [first, replayed, ...more] = mine(streamId);
    expect(more).toEqual([]);
    expect(replayed?.detail.id).toBe(first?.detail.id);
    expect(replayed?.id).not.toBe(first?.id);
    await setLive(creator.creatorId, null);
  });

  it('an entry the bus fails is put again (once), and the event arrives once', async () => {
    await fetch(`${publisher.bus.endpoint}/_local/faults`, { method: 'POST', body: '{"failEntries":1}' });
    const streamId = `st-${randomUUID()}`;
    await setLive(creator.creatorId, { stream_id: streamId, title: 'Fault' });
    await publisher.drain();
    expect(mine(streamId)).toHaveLength(1);
    await setLive(creator.creatorId, null);
    await publisher.drain();
  });

  it('least privilege both ways: every call the publisher made is granted, and its one grant is used', async () => {
    const calls = [
      ...(readUsage(String(process.env.IAM_USAGE_DIR)).get(functionKey(eventPublisherRow)) ?? []),
    ];
    expect(calls).toContain(`events:PutEvents ${publisher.bus.busArn}`);
    for (const call of calls) {
      const [action, resource] = call.split(' ') as [string, string];
      expect(await allows(publisher.context.policy, action, resource), call).toBe(true);
    }
    expect(publisher.context.policy.flatMap((s) => s.actions)).toEqual(['events:PutEvents']);
  });

  it('the publisher may put on its own bus only (the local IAM guard refuses another, as IAM would)', async () => {
    expect(publisher.bus.busName).toBe(LOCAL_EVENT_BUS_NAME);
    const entry = (bus: string) => ({
      EventBusName: bus,
      Source: EVENT_SOURCE,
      DetailType: 'creator.live',
      Detail: '{}',
    });
    // Under a probe name: the refusal provoked here is not the publisher's own call, so the
    // least-privilege report (which now checks the publisher too) does not count it against it.
    const asPublisher = <T>(fn: () => Promise<T>) =>
      runAsFunction({ ...publisher.context, routeKey: 'PROBE $stream/events' }, fn);
    const other = asPublisher(() => putEvents([entry('someone-elses-bus')]));
    await expect(other).rejects.toMatchObject({ name: 'AccessDeniedException' });
    const own = await asPublisher(() => putEvents([entry(publisher.bus.busName)]));
    expect(own[0]?.EventId).toBeTruthy();
  });
});
