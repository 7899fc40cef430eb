import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localIdpJwks } from './local-idp.ts';

/**
 * The local identity provider's key set over HTTP, as Google serves its own: the local platform
 * starts it and names it in GOOGLE_JWKS_URI, so the Google sign-in function verifies local
 * tokens (scripts/local/local-idp.ts, `npx tsx scripts/mint-google-token.ts you@x.com`) with
 * exactly its production code: a URL setting, no branch on being local.
 */
export interface GoogleIdpStandIn {
  /** The JWKS URL (`…/oauth2/v3/certs`, Google's path). */
  jwksUrl: string;
  stop(): Promise<void>;
}

export const startGoogleIdpStandIn = async (port = 0): Promise<GoogleIdpStandIn> => {
  const body = JSON.stringify(localIdpJwks());
  const server = createServer((req, res) => {
    const found = req.method === 'GET' && req.url === '/oauth2/v3/certs';
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(found ? body : JSON.stringify({ error: 'not found' }));
  });
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  return {
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/v3/certs`,
    stop: () =>
      new Promise<void>((stopped) => {
        server.closeAllConnections();
        server.close(() => stopped());
      }),
  };
};
