import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';
import { signUp, type StudioCreator, studioCreator } from '../support/studio.ts';

/**
 * Display text on the API (docs/conventions.md "Display text"): control characters, bidi overrides
 * and invisible-only text are 422s naming the field in every domain that takes it; emoji and
 * right-to-left scripts are stored as sent.
 */
let api: TestApi;
let creator: StudioCreator;
beforeAll(async () => {
  api = await testApi();
  creator = await studioCreator(api, 'music');
}, 120_000);

const show = (title: unknown, tags?: string[]) => ({
  title,
  description: 'A show.',
  category: 'music',
  rating: 'TV-PG',
  ...(tags ? { tags } : {}),
});

describe('studio show title', () => {
  it('is a 422 when it is only zero-width spaces or holds a NUL or an RTL override', async () => {
    for (const [title, message] of [
      ['\u200B\u200B\u200B', 'title must contain at least one visible character'],
      ['a\u0000b', 'title must not contain control characters or line breaks'],
      [
        'Loops\u202Egnp.exe',
        'title must not contain bidirectional override or isolate characters (U+202A-U+202E, U+2066-U+2069)',
      ],
    ]) {
      const res = await api.post('/studio/shows', { token: creator.token, body: show(title) });
      expect(res.status, JSON.stringify(title)).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'title', message }]);
    }
  });

  it('stores an emoji or Arabic title as sent, and tags without case-insensitive duplicates', async () => {
    const emoji = await api.post('/studio/shows', {
      token: creator.token,
      body: show('🎸 Late Loops', ['a', 'a', 'A', 'Live', ' live ']),
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.data).toMatchObject({ title: '🎸 Late Loops', tags: ['a', 'Live'] });
    const arabic = await api.post('/studio/shows', { token: creator.token, body: show('حلقات الليل') });
    expect(arabic.status).toBe(201);
    expect(arabic.body.data.title).toBe('حلقات الليل');
    expect((await api.get(`/shows/${arabic.body.data.show_id}`)).body.data.title).toBe('حلقات الليل');
  });
});

describe('creator name at sign-up and in the studio profile', () => {
  const signUpAs = async (creatorName: string) => (await signUp(api, 'text', creatorName)).res;

  it('is a 422 naming creator_name for a NUL or only invisible characters; an Arabic name with emoji is kept', async () => {
    const nul = await signUpAs('a\u0000b');
    expect(nul.status).toBe(422);
    expect(nul.body.errors).toEqual([
      { field: 'creator_name', message: 'creator_name must not contain control characters or line breaks' },
    ]);
    const blank = await api.patch('/studio/profile', {
      token: creator.token,
      body: { creator_name: '\u200B\u2060\u00AD' },
    });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual([
      { field: 'creator_name', message: 'creator_name must contain at least one visible character' },
    ]);
    const ok = await signUpAs('مايا 🎤');
    expect(ok.status).toBe(201);
    expect(ok.body.data.creator_name).toBe('مايا 🎤');
  });
});

describe('chat ban reason', () => {
  it('is a 422 naming reason for an RTL override; an Arabic reason bans', async () => {
    const made = await api.post('/studio/channel', { token: creator.token });
    expect(made.status).toBe(201);
    const { res: troll } = await signUp(api, 'troll');
    expect(troll.status).toBe(201);
    const ban = (reason: string) =>
      api.post('/studio/chat/bans', {
        token: creator.token,
        body: { account_id: troll.body.data.creator_id, duration_seconds: 600, reason },
      });
    const spoofed = await ban('spam \u202Eesuba');
    expect(spoofed.status).toBe(422);
    expect(spoofed.body.errors).toEqual([
      {
        field: 'reason',
        message:
          'reason must not contain bidirectional override or isolate characters (U+202A-U+202E, U+2066-U+2069)',
      },
    ]);
    const arabic = await ban('رسائل مزعجة');
    expect(arabic.status).toBe(201);
    expect(arabic.body.data.reason).toBe('رسائل مزعجة');
  });
});
