/**
 * The TypeScript examples of the docs, compiled by `npm run typecheck` (never run):
 * test/clients/doc-examples.test.ts checks that each block between `example:` markers is, line
 * for line, the example of the file it names, so an example that stops compiling fails the build.
 */
import { createApiClient } from '../../clients/typescript/index.ts';

export const clientDocComment = async () => {
  // example: clients/typescript/index.ts
  const api = createApiClient('http://127.0.0.1:3000');
  const { data } = await api.GET('/creators', { params: { query: { limit: 5 } } });
  data?.data.creators[0]?.subscribers_formatted; // string
  // end
};

export const readmeClient = async () => {
  // example: README.md
  const api = createApiClient('http://127.0.0.1:3000'); // npm start's address
  const { data } = await api.GET('/creators', { params: { query: { tier: 'gold', limit: 5 } } });
  data?.data.creators[0]?.subscribers_formatted; // string; a typo does not compile

  const signIn = await api.POST('/auth/login', {
    body: { email: 'viewer@demo.stream', password: 'demo-password-1' },
  });
  const account = signIn.data?.data; // 202 instead for an account with a second factor: POST /auth/mfa
  const token = account && 'auth_token' in account ? account.auth_token : undefined;
  const viewer = createApiClient('http://127.0.0.1:3000', { token: () => token }); // Bearer on every call
  const { data: watch, error } = await viewer.POST('/creators/{id}/channel/live/watch', {
    params: { path: { id: 'cr_0001' } }, // live; the demo viewer subscribes
    body: { channel_id: 'ch_0001', device_type: 'web', quality: '720p' },
  });
  // `error` is the documented error body of whichever status came back (401, 403, 404, 429...).
  // end
  return { watch, error };
};
