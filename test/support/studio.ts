import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { CategoryId } from '../../shared/catalog/model.ts';
import { fromNewAddress, type TestApi } from './api.ts';
import { waitFor } from './wait.ts';

export interface StudioCreator {
  /** The account's bearer token. */
  token: string;
  /** The account id, which is also its creator id. */
  creatorId: string;
  handle: string;
  category: CategoryId;
  email: string;
  /** The sign-up's refresh token. */
  refresh: string;
}

/**
 * `POST /onboarding/account/create` for a new account from a new address (its own per-IP budget):
 * `<prefix>.<id>@example.com`, handle `<prefix>_<id>`, the name given or `<Prefix> <id>`. `res` is
 * the response as it came, for tests that expect a refusal too.
 */
export const signUp = async (api: TestApi, prefix: string, creatorName?: string) => {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const email = `${prefix}.${id}@example.com`;
  const handle = `${prefix}_${id}`;
  const creator_name = creatorName ?? `${prefix[0]!.toUpperCase()}${prefix.slice(1)} ${id}`;
  const body = { email, password: 'correct-horse-1', creator_name, handle, agreed_to_terms: true };
  return { res: await api.post('/onboarding/account/create', fromNewAddress({ body })), id, email, handle };
};

/**
 * A creator as a new user becomes one: sign-up, category, social connect (the account turns
 * active), then the onboarding projection makes it a public creator; resolves once
 * `GET /creators/<account id>` finds it.
 */
export const studioCreator = async (api: TestApi, category: CategoryId = 'music'): Promise<StudioCreator> => {
  const { res: created, id, email, handle } = await signUp(api, 'studio');
  if (created.status !== 201) throw new Error(`sign-up failed: ${created.status}`);
  const token: string = created.body.data.auth_token;
  const refresh: string = created.body.data.refresh_token;
  const creatorId: string = created.body.data.creator_id;
  for (const [path, body] of [
    ['/onboarding/category', { category_id: category }],
    ['/onboarding/social/connect', { platform: 'youtube', access_token: `sdk-${id}` }],
  ] as const) {
    const step = await api.post(path, { body, token });
    if (step.status !== 200) throw new Error(`${path} failed: ${step.status}`);
  }
  await waitFor(
    async () => (await api.get(`/creators/${creatorId}`)).status === 200,
    'the creator to appear',
    60_000, // a hang guard (it polls every 50 ms): the projection took over 5 s under load 24
  );
  return { token, creatorId, handle, category, email, refresh };
};

/**
 * What an encoder makes IVS do, through the IVS stand-in's broadcast control (as `npm run
 * broadcast` uses it): `start` and `stop` a stream, `starve` and `recover` its health. Fails the
 * test on any answer but 200.
 */
export const broadcast = async (action: 'start' | 'stop' | 'starve' | 'recover', creatorId: string) => {
  const res = await fetch(`${process.env.IVS_ENDPOINT}/_local/broadcast/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: creatorId }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
};
