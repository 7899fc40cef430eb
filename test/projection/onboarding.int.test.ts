import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const categoryCount = async (category: string): Promise<number> => {
  const res = await api.get('/categories');
  return res.body.data.find((c: { id: string }) => c.id === category)?.creator_count ?? 0;
};

describe('creators come from onboarding (the projector)', () => {
  it('an account that finishes onboarding is found by id, handle, search, its category list and count, and newest', async () => {
    const before = await categoryCount('education');
    const creator = await studioCreator(api, 'education');
    const detail = await api.get(`/creators/${creator.creatorId}`);
    expect(detail.status).toBe(200);
    const user = detail.body.data.find((block: { type: string }) => block.type === 'user');
    expect(JSON.stringify(user)).toContain(creator.handle);
    expect((await api.get(`/creators/${creator.handle}`)).status).toBe(200);
    await waitFor(async () => {
      const newest = await api.get('/creators?category=education&sort=newest&limit=5');
      const search = await api.get(`/creators/search?q=${creator.handle}`);
      return (
        newest.body.data.creators.some((c: { id: string }) => c.id === creator.creatorId) &&
        search.body.data.creators.some((c: { id: string }) => c.id === creator.creatorId) &&
        (await categoryCount('education')) >= before + 1
      );
    }, 'the new creator in newest, search and the category count');
  });

  it('an account that has not finished onboarding stays private', async () => {
    const id = Math.random().toString(36).slice(2, 12);
    const created = await api.post('/onboarding/account/create', {
      body: {
        email: `private.${id}@example.com`,
        password: 'correct-horse-1',
        creator_name: 'Private',
        handle: `private_${id}`,
        agreed_to_terms: true,
      },
      headers: {
        'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      },
    });
    const token = created.body.data.auth_token;
    expect((await api.post('/onboarding/category', { body: { category_id: 'music' }, token })).status).toBe(
      200,
    );
    // The studio says what is left: after the category, connecting an audience (step 3).
    const studio = await api.post('/studio/channel', { body: {}, token });
    expect(studio.status).toBe(403);
    expect(studio.body.message).toContain('then connect an audience');
    // A later public creator's appearance proves the projector ran past this account's changes.
    await studioCreator(api, 'music');
    expect((await api.get(`/creators/${created.body.data.creator_id}`)).status).toBe(404);
    expect((await api.get(`/creators/private_${id}`)).status).toBe(404);
  });
});
