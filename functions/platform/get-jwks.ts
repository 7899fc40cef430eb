import { httpHandler } from '../../shared/http/handler.ts';
import { raw } from '../../shared/http/reply.ts';
import { publicJwks } from '../../shared/identity/jwks.ts';

export const handler = httpHandler({}, async () =>
  raw(await publicJwks(), { 'cache-control': 'public, max-age=300' }),
);
