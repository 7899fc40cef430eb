import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { type CallbackPolicy, allowedAddresses, callbackHost, parseCallback, pinnedLookup } from './ssrf.ts';

/**
 * One outbound webhook request: POST `body` to `callback` with `headers`, a hard timeout, no
 * redirects followed, the connection pinned to addresses the SSRF guard checked at this very
 * moment (shared/webhooks/ssrf.ts), and at most 64 KB of the answer read.
 */
export interface PostResult {
  /** The answer's status, or undefined when there was none (timeout, refused, network). */
  status?: number;
  retryAfter?: string;
  /** The answer's body (verification reads the echoed challenge), up to 64 KB. */
  body: string;
  /** Why there was no answer: `timeout`, `callback_refused`, `network`. */
  failure?: 'timeout' | 'callback_refused' | 'network';
  /** With `callback_refused`: the guard's reason (`callback must use the default https port (443)`), never the URL. */
  refusal?: string;
  durationMs: number;
}

/**
 * The outbound request's timeout, connect to last byte: 10 s. An object, like `clock`, so tests
 * that exercise receivers that hang can shorten it.
 */
export const requestTimeout = { ms: 10_000 };
const MAX_ANSWER_BYTES = 64 * 1024;

export const postWebhook = async (
  callback: string,
  headers: Record<string, string>,
  body: string,
  policy: CallbackPolicy,
  timeoutMs = requestTimeout.ms,
): Promise<PostResult> => {
  const started = Date.now();
  const done = (result: Omit<PostResult, 'durationMs'>): PostResult => ({
    ...result,
    durationMs: Date.now() - started,
  });
  let url: URL;
  try {
    url = parseCallback(callback, policy);
    // An IP-literal host never reaches the lookup: checked here.
    if (isIP(callbackHost(url))) await allowedAddresses(callbackHost(url), policy);
  } catch (error) {
    return done({ failure: 'callback_refused', refusal: (error as Error).message, body: '' });
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(result));
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'creator-streaming-webhooks/1',
        },
        lookup: pinnedLookup(policy) as never,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on('end', () =>
          finish({
            status: res.statusCode,
            retryAfter: res.headers['retry-after'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', () => finish({ failure: 'network', body: '' }));
      },
    );
    const timer = setTimeout(() => {
      finish({ failure: 'timeout', body: '' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: Error) =>
      finish(
        error.name === 'CallbackRefusedError'
          ? { failure: 'callback_refused', refusal: error.message, body: '' }
          : { failure: 'network', body: '' },
      ),
    );
    req.end(body);
  });
};
