import { gzipSync } from 'node:zlib';
import { ResponseTooLargeError } from '../../errors/errors.ts';
import type { HttpMiddleware, HttpRequest, HttpResponse } from './state.ts';

/**
 * Lambda's limit on a synchronous invocation's response payload: 6 MB, counted on the response
 * object as the runtime serializes it (statusCode, headers and body as one JSON document, so each
 * `"` of a JSON body counts twice). Past it the invocation fails with Function.ResponseSizeTooLarge
 * and API Gateway answers an opaque 502. The one place this figure lives (the local gateway applies
 * it too).
 */
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/**
 * Bodies over this many bytes are sent gzip-compressed to a caller that accepts gzip. Above every
 * answer the bench measures (the largest, the guide, ~21 KB) so ordinary answers pay nothing;
 * docs/performance.md "Large answers: gzip" has the figures.
 */
export const GZIP_MIN_BYTES = 1024 * 1024;

/** zlib's default level: ~12x on a show detail, ~5 ms per MB on the bench machine (docs/performance.md). */
const GZIP_LEVEL = 6;

/**
 * Room for the headers the chain adds after this step (CORS, security, rate-limit headers and
 * `x-request-id`: under 1 KB together), so the answer Lambda serializes stays under the limit.
 */
const LATER_HEADERS_BYTES = 2048;

/**
 * Whether an `Accept-Encoding` value accepts gzip (RFC 9110 section 12.5.3): `gzip` (or `x-gzip`)
 * with a non-zero q, or else `*` with a non-zero q. `gzip;q=0` refuses it even beside `*`;
 * `identity` alone, an empty or missing header and a malformed q do not accept it.
 */
export const acceptsGzip = (header: string | undefined): boolean => {
  let gzip: number | undefined;
  let any: number | undefined;
  for (const entry of (header ?? '').split(',')) {
    const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    const weight = q === undefined ? 1 : qValue(q.slice(q.indexOf('=') + 1).trim());
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, weight);
    else if (coding === '*') any = Math.max(any ?? 0, weight);
  }
  return (gzip ?? any ?? 0) > 0;
};

/** An RFC 9110 qvalue (`0`, `0.5`, `1.000`); anything else is 0, so a malformed one accepts nothing. */
const qValue = (text: string): number => (/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(text) ? Number(text) : 0);

/** The size of `response` as Lambda counts it (its JSON serialization), plus the later headers. */
const payloadBytes = (response: HttpResponse): number =>
  Buffer.byteLength(JSON.stringify(response)) + LATER_HEADERS_BYTES;

const gzipped = (response: HttpResponse, body: string): HttpResponse => ({
  ...response,
  headers: { ...response.headers, 'content-encoding': 'gzip', vary: 'accept-encoding' },
  body: gzipSync(body, { level: GZIP_LEVEL }).toString('base64'),
  isBase64Encoded: true,
});

/**
 * The answer as it may be sent: a body over `GZIP_MIN_BYTES` gzip-compressed (base64, as API
 * Gateway takes binary answers) when the caller accepts gzip, and `vary: accept-encoding` on
 * every answer of that size. An answer still over `MAX_RESPONSE_BYTES` is a ResponseTooLargeError,
 * which says whether asking for gzip would have made it fit.
 */
export const encodeResponse = (response: HttpResponse, acceptEncoding: string | undefined): HttpResponse => {
  const body = response.body;
  if (!body || response.isBase64Encoded || Buffer.byteLength(body) <= GZIP_MIN_BYTES) return response;
  const gzip = acceptsGzip(acceptEncoding);
  const answer = gzip
    ? gzipped(response, body)
    : { ...response, headers: { ...response.headers, vary: 'accept-encoding' } };
  if (payloadBytes(answer) <= MAX_RESPONSE_BYTES) return answer;
  throw new ResponseTooLargeError(
    MAX_RESPONSE_BYTES,
    gzip
      ? 'gzip-too-large'
      : payloadBytes(gzipped(response, body)) <= MAX_RESPONSE_BYTES
        ? 'needs-gzip'
        : 'too-large',
  );
};

const encode = async (request: HttpRequest) => {
  if (request.response)
    request.response = encodeResponse(request.response, request.event.headers?.['accept-encoding']);
};

/**
 * Compresses large answers and turns one Lambda could not return into a clear 500 (above). Used
 * last but for the error envelopes, so its `after` runs first: its error goes through
 * `errorEnvelopes` and gets CORS, security headers, request id and the request log like any other.
 */
export const responseEncoding = (): HttpMiddleware => ({ after: encode });
