import { bearerToken, type Principal } from '../auth.ts';
import { UnauthorizedError } from '../errors.ts';
import type { RouteRow } from '../route.ts';
import { type HttpMiddleware, stateOf } from './state.ts';

let verifier: ((token: string) => Promise<Principal>) | undefined;
/** Lazily loads the access-token verifier so routes that never see a token never pay for it. */
const verifyAccessToken = async (token: string): Promise<Principal> => {
  verifier ??= (await import('../../identity/token-verifier.ts')).verifyAccessToken;
  return verifier(token);
};

/** The caller per the route's auth mode (none / optional / required); 401 when it cannot be. */
const principalOf = async (route: RouteRow | undefined, authorization: string | undefined) => {
  const mode = route?.auth ?? 'none';
  if (mode === 'none') return undefined;
  if (authorization === undefined) {
    if (mode === 'required') throw new UnauthorizedError();
    return undefined;
  }
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError('Authorization header must be "Bearer <token>"');
  return verifyAccessToken(token);
};

/**
 * Verifies the bearer token as the route row asks and keeps the caller as `principal` (401 for a
 * missing token on a `required` route, a malformed header or a token that fails verification).
 * Reads the lower-cased `authorization` header, so it runs after the header normalizer.
 */
export const authenticate = (): HttpMiddleware => ({
  before: async (request) => {
    const state = stateOf(request);
    state.principal = await principalOf(state.route, request.event.headers?.authorization);
  },
});
