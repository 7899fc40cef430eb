import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as endVideoSession } from '../../functions/analytics/end-video-session.ts';
import { handler as recordVideoHeartbeat } from '../../functions/analytics/record-video-heartbeat.ts';
import { newSessionId } from '../../shared/analytics/playback-count.ts';
import { playbackSessionOf } from '../../shared/analytics/playback-repository.ts';
import { isRateLimitCounter } from '../../shared/http/rate-limit-repository.ts';
import { accountKeyOf } from '../../shared/analytics/pseudonym.ts';
import { type AnalyticsRecord, useSink } from '../../shared/analytics/sink.ts';
import { db } from '../../shared/db/client.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { logger, metrics } from '../../shared/observability/index.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { apiEvent } from '../support/events.ts';

/**
 * Issue 14 item 1: the continue-watching playhead of a signed-in video heartbeat or session end
 * is a side effect. When DynamoDB refuses it (as AWS does a role without the grant), the event
 * still reaches the sink and the client gets 200. The handlers are called directly; every
 * DynamoDB call meets the fake below, so nothing leaves the process.
 */
const episode = generateCatalog({ now: new Date('2026-11-01T00:00:00Z'), seed: 42 }).episodes.find(
  (e) => e.duration_seconds > 1200,
)!;
let delivered: AnalyticsRecord[];
let order: string[];
beforeEach(() => {
  delivered = [];
  order = [];
  useSink({
    put: async (records) => {
      order.push('sink');
      delivered.push(...records);
    },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  useSink(undefined);
});

type Command = { constructor: { name: string }; input: Record<string, unknown> };
const accessDenied = () =>
  Object.assign(new Error('User is not authorized to perform this action'), {
    name: 'AccessDeniedException',
    $fault: 'client',
  });

/** trackProgress's calls: the episode lookup (Query on GSI3), then the playhead PutItem or DeleteItem. */
const episodeLookup = (c: Command) => c.constructor.name === 'QueryCommand' && c.input.IndexName === 'GSI3';
const playheadWrite = (c: Command) => ['PutCommand', 'DeleteCommand'].includes(c.constructor.name);
/** recordPlayback's calls (the view count): an UpdateItem of the session's playback, a second at 30 s. */
const playbackWrite = (c: Command) =>
  c.constructor.name === 'UpdateCommand' &&
  playbackSessionOf(c.input.Key as Record<string, unknown>) !== undefined;

/**
 * Stands in for DynamoDB at the document client: `refuse` picks the calls answered with
 * AccessDeniedException (not retryable); the episode lookup is otherwise answered from the
 * catalogue; anything else fails the test. Records every call in `order`.
 */
const fakeDynamo = (refuse: (command: Command) => boolean) =>
  vi.spyOn(db, 'send').mockImplementation((async (command: Command) => {
    // The route's rate-limit counters (per account and per IP): within budget, not listed.
    if (command.input.Key && isRateLimitCounter(command.input.Key as Record<string, unknown>))
      return { Attributes: { count: 1 } };
    order.push(command.constructor.name);
    if (refuse(command)) throw accessDenied();
    if (episodeLookup(command)) return { Items: [episode] };
    if (playbackWrite(command)) return { Attributes: { played: 30 } };
    throw new Error(`unexpected DynamoDB call ${command.constructor.name}`);
  }) as never);

const ROUTES = {
  heartbeat: { route: 'POST /analytics/video/session/heartbeat', handler: recordVideoHeartbeat },
  end: { route: 'POST /analytics/video/session/end', handler: endVideoSession },
} as const;

const send = async (path: keyof typeof ROUTES, token?: string) => {
  const body = {
    event_id: randomUUID(),
    // A session the platform started two minutes ago (its id carries the start time).
    session_id: newSessionId(new Date(Date.now() - 120_000)),
    content_id: episode.id,
    device_type: 'web',
    client_ts: new Date().toISOString(),
    position_seconds: 120,
    playing_seconds: 30,
    ...(path === 'end' ? { reason: 'user_exit' } : {}),
  };
  const { route, handler } = ROUTES[path];
  const response = await handler(apiEvent({ route, body, token }));
  return { body, status: response.statusCode, data: JSON.parse(String(response.body)).data };
};

const signedIn = async () => {
  const accountId = `acc_fx_${randomUUID()}`;
  return { accountId, token: (await issueAccessToken(accountId, new Date())).token };
};

describe('video heartbeat and session end when the continue-watching write fails', () => {
  it.each([
    // The session's 30 s of playing time are counted first (two UpdateItems: the sum, then `counted_at`).
    [
      'heartbeat',
      'the episode lookup',
      episodeLookup,
      ['sink', 'UpdateCommand', 'UpdateCommand', 'QueryCommand'],
    ],
    [
      'heartbeat',
      'the playhead write',
      playheadWrite,
      ['sink', 'UpdateCommand', 'UpdateCommand', 'QueryCommand', 'PutCommand'],
    ],
    ['end', 'the episode lookup', episodeLookup, ['sink', 'UpdateCommand', 'UpdateCommand', 'QueryCommand']],
    [
      'end',
      'the playhead write',
      playheadWrite,
      ['sink', 'UpdateCommand', 'UpdateCommand', 'QueryCommand', 'PutCommand'],
    ],
  ] as const)(
    '%s: %s refused → 200, the event reached the sink first',
    async (path, _what, refuse, calls) => {
      const { accountId, token } = await signedIn();
      const warn = vi.spyOn(logger, 'warn');
      const addMetric = vi.spyOn(metrics, 'addMetric');
      fakeDynamo(refuse);
      const { body, status, data } = await send(path, token);
      expect(status).toBe(200);
      expect(data).toEqual({ accepted: 1, received_at: expect.any(String) });
      expect(order).toEqual(calls);
      expect(delivered).toEqual([
        expect.objectContaining({
          event_id: body.event_id,
          family: 'video',
          type: path,
          content_id: episode.id,
          // The account's keyed pseudonym, never its id (docs/accounts.md "Analytics").
          account_id: await accountKeyOf(accountId),
          position_seconds: 120,
        }),
      ]);
      expect(JSON.stringify(delivered)).not.toContain(accountId);
      expect(addMetric).toHaveBeenCalledWith('progress_write_failures', expect.anything(), 1);
      const warning = warn.mock.calls.find(([message]) => String(message).includes('progress not saved'));
      expect(JSON.stringify(warning)).toContain('AccessDeniedException');
      for (const secret of [token, accountId, episode.id, body.session_id, body.event_id])
        expect(JSON.stringify(warning)).not.toContain(secret);
    },
  );

  it('a missing table setting (a function deployed without the grant) is the same: 200, event kept', async () => {
    // Anonymous, with per-IP budgets off: the route's rate limiter (which needs the table) stays out.
    vi.stubEnv('LOCAL_RATE_LIMITS', 'off');
    const saved = process.env.TABLE_NAME;
    delete process.env.TABLE_NAME;
    const send$ = vi.spyOn(db, 'send');
    try {
      const { status, body } = await send('heartbeat');
      expect(status).toBe(200);
      expect(delivered.map((r) => r.event_id)).toEqual([body.event_id]);
    } finally {
      process.env.TABLE_NAME = saved;
    }
    expect(send$).not.toHaveBeenCalled();
  });

  it('an anonymous heartbeat only counts its playing time (no playhead)', async () => {
    fakeDynamo(() => false);
    const { status } = await send('heartbeat');
    expect(status).toBe(200);
    expect(order).toEqual(['sink', 'UpdateCommand', 'UpdateCommand']);
  });

  it('a refused playback count is a side effect too: 200, event kept, counted in a metric', async () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    fakeDynamo(playbackWrite);
    const { status, body } = await send('heartbeat');
    expect(status).toBe(200);
    expect(delivered.map((r) => r.event_id)).toEqual([body.event_id]);
    expect(addMetric).toHaveBeenCalledWith('playback_count_failures', expect.anything(), 1);
  });
});
