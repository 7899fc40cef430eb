import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../clients/typescript/index.ts';
import { DEMO_VIEWER, GATED_LIVE_CREATOR_ID } from '../../scripts/seed/generate.ts';
import { testApi } from '../support/api.ts';
import { responseProblems } from '../support/openapi-validator.ts';

/**
 * A client developer's first program, written with the generated TypeScript client
 * (clients/typescript) against the local platform: list creators, sign in as the demo viewer,
 * open a watch session on the live channel the viewer subscribes to, send a heartbeat, end the session. Every field read
 * here is typed from docs/openapi.json (test/clients/typescript-client.types.ts proves none is
 * `unknown` or `any`), and every response is also checked against the document.
 */
let baseUrl: string;
/** Always live, its channel needs a subscription, and the demo viewer has one (docs/demo-data.md). */
const live = { id: GATED_LIVE_CREATOR_ID, channel: 'ch_0001' };

/** The global fetch, with each response checked against the document like every integration test's. */
const checkedFetch = async (request: Request): Promise<Response> => {
  const response = await fetch(request);
  const text = await response.clone().text();
  const url = new URL(request.url);
  const problems = responseProblems(
    request.method,
    `${url.pathname}${url.search}`,
    response.status,
    text ? JSON.parse(text) : undefined,
    response.headers.get('content-type') ?? undefined,
  );
  if (problems.length > 0)
    throw new Error(`Response does not match docs/openapi.json: ${problems.join('; ')}`);
  return response;
};

beforeAll(async () => {
  baseUrl = (await testApi()).url;
});

/** A fresh client address per client, so per-IP budgets never couple this test to another. */
const address = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;

describe('the generated TypeScript client', () => {
  it('lists creators, signs in, opens a watch session, heartbeats and ends it', async () => {
    const headers = { 'x-forwarded-for': address() };
    const anonymous: ApiClient = createApiClient(baseUrl, { headers, fetch: checkedFetch });

    const listed = await anonymous.GET('/creators', {
      params: { query: { tier: 'gold', sort: 'most_popular', limit: 5 } },
    });
    expect(listed.response.status).toBe(200);
    const page = listed.data!;
    expect(page.status).toBe('success');
    expect(page.data.creators).toHaveLength(5);
    for (const creator of page.data.creators) {
      expect(creator.tier).toBe('gold');
      expect(creator.id).toMatch(/^cr_\d{4}$/);
      expect(creator.subscribers_formatted).toMatch(/^\d+(\.\d)?[KM]?$/);
    }
    const { total, total_pages, filters_applied } = page.meta_data;
    expect(page.meta_data).toMatchObject({ page: 1, limit: 5 });
    expect(total).toBeGreaterThan(5);
    expect(total_pages).toBe(Math.ceil(total / 5));
    expect(filters_applied).toEqual({ category: 'all', tier: 'gold', sort: 'most_popular' });

    const signIn = await anonymous.POST('/auth/login', {
      body: { email: DEMO_VIEWER.email, password: DEMO_VIEWER.password },
    });
    expect(signIn.response.status).toBe(200);
    const account = signIn.data!.data;
    if (!('auth_token' in account)) throw new Error('the demo viewer has no second factor: 200, not 202');
    expect(account.creator_id).toBe(DEMO_VIEWER.account_id);
    expect(account.email).toBe(DEMO_VIEWER.email);
    expect(account.auth_token.split('.')).toHaveLength(3);
    expect(Date.parse(account.token_expires_at)).toBeGreaterThan(Date.now());

    let token: string | undefined = account.auth_token;
    const viewer = createApiClient(baseUrl, { headers, fetch: checkedFetch, token: () => token });
    const path = { id: live.id };

    const opened = await viewer.POST('/creators/{id}/channel/live/watch', {
      params: { path },
      body: { channel_id: live.channel, device_type: 'web', quality: '720p', timezone: 'Europe/Paris' },
    });
    expect(opened.response.status).toBe(200);
    const watch = opened.data!.data;
    expect(watch.creator.id).toBe(live.id);
    expect(watch.session.device_type).toBe('web');
    expect(watch.session.heartbeat_interval_seconds).toBe(30);
    expect(watch.stream.quality).toBe('720p');
    expect(watch.viewers.watching_now).toBeGreaterThanOrEqual(1);
    expect(watch.epg.timezone).toBe('Europe/Paris');
    const sessionId = watch.session.session_id;

    const beat = await viewer.GET('/creators/{id}/channel/live/heartbeat', {
      params: { path, query: { session_id: sessionId } },
    });
    expect(beat.response.status).toBe(200);
    const heartbeat = beat.data!.data;
    expect(heartbeat.session_id).toBe(sessionId);
    // The body is a union on `session_valid`: narrowing on it gives the live session's fields.
    if (!heartbeat.session_valid) throw new Error(`The session is no longer valid: ${heartbeat.reason}`);
    expect(heartbeat.next_heartbeat_seconds).toBe(30);
    expect(heartbeat.stream.is_live).toBe(true);
    expect(Date.parse(heartbeat.expires_at)).toBeGreaterThanOrEqual(Date.parse(watch.session.expires_at));

    const ended = await viewer.DELETE('/creators/{id}/channel/live/watch', {
      params: { path, query: { session_id: sessionId } },
    });
    expect(ended.response.status).toBe(200);
    const end = ended.data!.data;
    expect(end.session_id).toBe(sessionId);
    expect(end.watch_duration_seconds).toBeGreaterThanOrEqual(0);
    expect(end.watch_duration_formatted).toMatch(/^\d{2}:\d{2}$/);

    // Without the token the same client is anonymous, and the API says why in a typed error.
    token = undefined;
    const refused = await viewer.GET('/creators/{id}/channel/live/heartbeat', {
      params: { path, query: { session_id: sessionId } },
    });
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ status: 'error', code: 401 });
  });
});
