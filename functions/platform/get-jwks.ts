import { endpoint } from '../../shared/http/handler.ts';
import { raw } from '../../shared/http/reply.ts';
import { publicJwks } from '../../shared/identity/jwks.ts';
import * as contracts from './contracts.ts';

/** The signing key's public JWK from the environment (SIGNING_PUBLIC_JWK, computed at deploy): no KMS call. */
export const handler = endpoint(contracts.getJwks, async () =>
  raw(publicJwks(), { 'cache-control': 'public, max-age=300' }),
);
