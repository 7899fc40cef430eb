import { bearerToken, type Principal } from '../../identity/principal.ts';
import { UnauthorizedError } from '../../errors/errors.ts';
import type { RouteRow } from '../../routing/route.ts';
import { type HttpMiddleware, stateOf } from './state.ts';

/**
 * True in a bundle built for a route that verifies no token: the Lambda bundler replaces
 * `process.env.LAMBDA_BUNDLE_AUTH` with `"none"` for `auth: 'none'` rows (infra/bundling.ts
 * `bundleDefineOf`), so esbuild drops the dead `import()` below and, with it, the token verifier,
 * aws-jwt-verify (the verifier reads the public key from its environment: no KMS client in any
 * verifying bundle). Unset everywhere else (tsx,
 * the local server, the tests, the other bundles): the verifier loads at the first token.
 * `endpoint` refuses at init a contract whose auth is not `none` in such a bundle.
 */
export const BUNDLED_WITHOUT_VERIFIER = process.env.LAMBDA_BUNDLE_AUTH === 'none';

let verifier: ((token: string) => Promise<Principal>) | undefined;
/** Lazily loads the access-token verifier so routes that never see a token never pay for it. */
const verifyAccessToken = async (token: string): Promise<Principal> => {
  // The `import()` must sit in the `else` of the literal test: esbuild drops an import only
  // from a branch it folds away, not from code after a `throw`.
  if (process.env.LAMBDA_BUNDLE_AUTH === 'none') throw new Error('Bundled without the token verifier');
  else verifier ??= (await import('../../identity/token-verifier.ts')).verifyAccessToken;
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
  if (!token)
    throw new UnauthorizedError('Authorization header must be "Bearer <token>"', {
      error: 'invalid_request',
      description: 'The Authorization header must be "Bearer <token>"',
    });
  return verifyAccessToken(token);
};

/**
 * Verifies the bearer token as the route row asks and keeps the caller as `principal` (401 for a
 * missing token on a `required` route, a malformed header or a token that fails verification).
 * Reads the `authorization` header, lower case as API Gateway's HTTP API names every header.
 */
export const authenticate = (): HttpMiddleware => ({
  before: async (request) => {
    const state = stateOf(request);
    state.principal = await principalOf(state.route, request.event.headers?.authorization);
  },
});
