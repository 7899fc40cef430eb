import { JwtVerifier } from 'aws-jwt-verify';
import { UnauthorizedError } from '../http/errors.ts';

/**
 * Verifies Google ID tokens with aws-jwt-verify: issuer accounts.google.com, audience = our
 * GOOGLE_CLIENT_ID, RS256 only, expiry. Keys come from Google's JWKS (GOOGLE_JWKS_URI) on AWS;
 * with GOOGLE_IDP=local, from the local identity provider (shared/identity/local-idp.ts).
 */
export interface GoogleProfile {
  sub: string;
  email: string;
  name: string;
}

const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

type Verifier = { verify(token: string): Promise<Record<string, unknown>> };
let verifier: Promise<Verifier> | undefined;

const createVerifier = async (): Promise<Verifier> => {
  const local = process.env.GOOGLE_IDP === 'local';
  const { LOCAL_GOOGLE_CLIENT_ID, localIdpJwks } = local ? await import('./local-idp.ts') : ({} as never);
  const audience = process.env.GOOGLE_CLIENT_ID ?? (local ? LOCAL_GOOGLE_CLIENT_ID : undefined);
  if (!audience) throw new Error('GOOGLE_CLIENT_ID is not configured');
  const v = JwtVerifier.create(
    ISSUERS.map((issuer) => ({
      issuer,
      audience,
      jwksUri: process.env.GOOGLE_JWKS_URI ?? 'https://www.googleapis.com/oauth2/v3/certs',
      customJwtCheck: ({ header }: { header: { alg?: string } }) => {
        if (header.alg !== 'RS256') throw new Error('Unexpected algorithm');
      },
    })),
  );
  if (local) for (const issuer of ISSUERS) v.cacheJwks(localIdpJwks() as never, issuer);
  return v as unknown as Verifier;
};

/** The verified Google profile; any invalid or expired token is a 401 (spec 5). */
export const verifyGoogleToken = async (token: string): Promise<GoogleProfile> => {
  verifier ??= createVerifier();
  let payload: Record<string, unknown>;
  try {
    payload = await (await verifier).verify(token);
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
