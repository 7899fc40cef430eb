import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { UnauthorizedError } from '../errors/errors.ts';

/**
 * Verifies Google ID tokens with aws-jwt-verify: issuer accounts.google.com, audience = our
 * GOOGLE_CLIENT_ID, RS256 only, expiry. Keys come from Google's JWKS; GOOGLE_JWKS_URI names
 * another key set (the local platform's identity provider, scripts/local/google-idp.ts), which
 * no stack sets: the same code verifies both.
 */
export interface GoogleProfile {
  sub: string;
  email: string;
  name: string;
}

const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/**
 * A JWKS cache that fetches with the platform's `fetch` (5 s timeout): aws-jwt-verify's own
 * fetcher speaks HTTPS only, and a URL setting may name a local stand-in on plain HTTP
 * (GOOGLE_JWKS_URI, PLAY_PUSH_JWKS_URL). Google's own key sets are HTTPS either way.
 */
export const fetchedJwksCache = () =>
  new SimpleJwksCache({
    fetcher: {
      fetch: async (uri) => {
        const res = await fetch(uri, { signal: AbortSignal.timeout(5000) });
        if (!res.ok) throw new Error(`JWKS ${uri}: ${res.status}`);
        return res.arrayBuffer();
      },
    },
  });

type Verifier = { verify(token: string): Promise<Record<string, unknown>> };
let verifier: Verifier | undefined;

const createVerifier = (): Verifier => {
  const audience = process.env.GOOGLE_CLIENT_ID;
  if (!audience) throw new Error('GOOGLE_CLIENT_ID is not configured');
  return JwtVerifier.create(
    ISSUERS.map((issuer) => ({
      issuer,
      audience,
      jwksUri: process.env.GOOGLE_JWKS_URI || 'https://www.googleapis.com/oauth2/v3/certs',
      customJwtCheck: ({ header }: { header: { alg?: string } }) => {
        if (header.alg !== 'RS256') throw new Error('Unexpected algorithm');
      },
    })),
    { jwksCache: fetchedJwksCache() },
  ) as unknown as Verifier;
};

/** The verified Google profile; any invalid or expired token is a 401 (spec 5). */
export const verifyGoogleToken = async (token: string): Promise<GoogleProfile> => {
  verifier ??= createVerifier();
  let payload: Record<string, unknown>;
  try {
    payload = await verifier.verify(token);
  } catch {
    throw new UnauthorizedError('Invalid or expired Google token');
  }
  // The email is what an existing account is matched on: only an address Google says it verified
  // counts (Google sends the boolean; older tokens carried the string "true").
  const verified = payload.email_verified === true || payload.email_verified === 'true';
  if (typeof payload.email !== 'string' || !verified) {
    throw new UnauthorizedError('Google account has no verified email');
  }
  return {
    sub: String(payload.sub),
    email: payload.email,
    name: typeof payload.name === 'string' ? payload.name : payload.email,
  };
};
