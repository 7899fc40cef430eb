import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../shared/catalog/model.ts';
import { ConflictError, NotFoundError } from '../../shared/errors/errors.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { getReport } from '../../shared/reports/report-repository.ts';
import { submitReport } from '../../shared/reports/reports.ts';
import { createReportBody } from '../../shared/reports/schemas.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
let catalog: Catalog;
beforeAll(async () => {
  api = await testApi();
  catalog = generateCatalog({ now: api.seededAt, seed: 42 });
});

const body = (overrides: Record<string, unknown> = {}) =>
  createReportBody.parse({
    target_type: 'show',
    target_id: catalog.shows[0]!.id,
    category: 'spam',
    ...overrides,
  });

describe('POST /reports over HTTP', () => {
  it('answers 401 without a bearer token or with a malformed one', async () => {
    const report = { target_type: 'show', target_id: catalog.shows[0]!.id, category: 'spam' };
    const anonymous = await api.post('/reports', { body: report });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status: 'error', code: 401 });
    const malformed = await api.post('/reports', { body: report, headers: { authorization: 'Bearer nope' } });
    expect(malformed.status).toBe(401);
  });

  it('answers 201 with the report, 409 for a second report of the same target, 422 and 404', async () => {
    const token = (await issueAccessToken(`acct_http_report_${randomUUID()}`, new Date())).token;
    const show = catalog.shows[3]!;
    const report = { target_type: 'show', target_id: show.id, category: 'other', reason: 'wrong language' };
    const first = await api.post('/reports', { token, body: report });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      status: 'success',
      message: 'Report received',
      data: {
        report_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        target_type: 'show',
        target_id: show.id,
        category: 'other',
        reason: 'wrong language',
        status: 'pending_review',
        created_at: expect.any(String),
      },
    });
    const again = await api.post('/reports', { token, body: { ...report, category: 'spam' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'error', code: 409 });
    const invalid = await api.post('/reports', { token, body: { target_type: 'post', category: 'other' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      expect.arrayContaining(['target_id', 'target_type']),
    );
    const unknown = await api.post('/reports', {
      token,
      body: { target_type: 'video', target_id: 'ep_missing', category: 'spam' },
    });
    expect(unknown.status).toBe(404);
    expect(first.headers.get('ratelimit')).toMatch(/^limit=30, remaining=29, reset=\d+$/);
  });
});

describe('submitReport (the POST /reports domain function, against DynamoDB Local)', () => {
  it('stores one report per user per target for moderation and rejects the second with 409', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const account = `acct_report_${Date.now()}`;
    const show = catalog.shows[1]!;
    const view = await submitReport(account, body({ target_id: show.id, reason: ' misleading title ' }), now);
    expect(view).toEqual({
      report_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      target_type: 'show',
      target_id: show.id,
      category: 'spam',
      reason: 'misleading title',
      status: 'pending_review',
      created_at: now.toISOString(),
    });
    expect(await getReport(account, 'show', show.id)).toMatchObject({
      account_id: account,
      report_id: view.report_id,
      status: 'pending_review',
    });
    await expect(
      submitReport(account, body({ target_id: show.id, category: 'violence' }), now),
    ).rejects.toThrow(ConflictError);
    // Another user may report the same show; the same user may report another target.
    await expect(submitReport(`${account}_2`, body({ target_id: show.id }), now)).resolves.toMatchObject({
      target_id: show.id,
    });
    await expect(
      submitReport(account, body({ target_id: catalog.shows[2]!.id }), now),
    ).resolves.toMatchObject({
      target_id: catalog.shows[2]!.id,
    });
  });

  it('reports a video by episode id, and 404s for unknown targets', async () => {
    const now = new Date();
    const account = `acct_video_${Date.now()}`;
    const episode = catalog.episodes[0]!;
    await expect(
      submitReport(
        account,
        body({ target_type: 'video', target_id: episode.id, category: 'copyright' }),
        now,
      ),
    ).resolves.toMatchObject({ target_type: 'video', target_id: episode.id, reason: null });
    await expect(
      submitReport(account, body({ target_type: 'video', target_id: 'ep_missing' }), now),
    ).rejects.toThrow(NotFoundError);
    await expect(submitReport(account, body({ target_id: 'sh_missing' }), now)).rejects.toThrow(
      NotFoundError,
    );
  });
});

describe('POST /reports body', () => {
  it('requires a known target type and category, and a reason for category other', () => {
    const bad = (input: unknown) => createReportBody.safeParse(input).success;
    expect(bad({ target_type: 'show', target_id: 'sh_1', category: 'spam' })).toBe(true);
    expect(bad({ target_type: 'post', target_id: 'sh_1', category: 'spam' })).toBe(false);
    expect(bad({ target_type: 'show', target_id: 'sh_1', category: 'boring' })).toBe(false);
    expect(bad({ target_type: 'show', target_id: '', category: 'spam' })).toBe(false);
    expect(bad({ target_type: 'show', target_id: 'sh_1', category: 'other' })).toBe(false);
    expect(bad({ target_type: 'show', target_id: 'sh_1', category: 'other', reason: 'wrong language' })).toBe(
      true,
    );
    expect(bad({ target_type: 'show', target_id: 'sh_1', category: 'spam', reason: 'x'.repeat(1001) })).toBe(
      false,
    );
  });
});
