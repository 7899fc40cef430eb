/**
 * The registered claims every access token carries and every verifier pins. A module of their
 * own, so the token signers (shared/identity/access-token.ts) and the verifier
 * (token-verifier.ts) share them without either bundling the other: a signer's bundle has no
 * aws-jwt-verify, a verifier's no KMS client (test/infra/bundle-auth.test.ts).
 */
export const TOKEN_ISSUER = 'https://api.creators.example.com';
export const TOKEN_AUDIENCE = 'creator-streaming-api';
