/**
 * Reply extras for every response that carries tokens: never stored by a browser, proxy or CDN
 * (RFC 6749 5.1: `Cache-Control: no-store`, and `Pragma: no-cache` for HTTP/1.0 caches).
 * Usage: `ok(await logIn(body, now), noStore)`.
 */
export const noStore = {
  headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
};

/** The `noStore` headers as the contracts document them (a success response's `headers`). */
export const noStoreHeaders = {
  'cache-control':
    '`no-store`: the body carries tokens, no browser, proxy or CDN may store it (RFC 6749 5.1)',
  pragma: '`no-cache`, the same for HTTP/1.0 caches',
} as const;
