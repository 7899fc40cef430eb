import { endpoint } from '../../shared/http/handler.ts';
import { raw } from '../../shared/http/reply.ts';
import { publicJwks } from '../../shared/identity/jwks.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getJwks, async () =>
  raw(await publicJwks(), { 'cache-control': 'public, max-age=300' }),
);
