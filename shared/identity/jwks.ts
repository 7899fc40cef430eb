import { perContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import type { SigningJwks } from './schemas.ts';
import { parseSigningJwk } from './signing-jwk.ts';

/**
 * The public half of the access-token signing key as a JWKS, from the function's environment:
 * `SIGNING_PUBLIC_JWK`, which the stack computes ONCE at deploy (the `Custom::SigningPublicKey`
 * resource reads KMS GetPublicKey: infra/signing-public-key.ts; locally scripts/local/aws.ts makes
 * it from the local key) and gives every verifying function and the JWKS route. No KMS client in
 * their bundles and no KMS call at a cold container's first token (docs/identity.md "Verifying
 * tokens"). Served at `/.well-known/jwks.json` for clients, and cached by every verifying function
 * at its first token: verification never calls our own API, KMS or the internet. Parsed once per
 * container; a malformed value throws at first use, naming the problem (a deployment error).
 */
export const publicJwks: () => SigningJwks = /* @__PURE__ */ perContainer(() => {
  const keys = [parseSigningJwk(setting('SIGNING_PUBLIC_JWK'))];
  return { keys };
});
