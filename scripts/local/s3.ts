import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The local stand-in for the S3 REST API of the buckets functions write and hand out presigned
 * URLs to (today the account exports bucket, docs/accounts.md). The real `@aws-sdk/client-s3`
 * reaches it through its endpoint setting (AWS_ENDPOINT_URL_S3, which the local platform puts in
 * every function's environment: scripts/local/aws.ts); who may call it is checked before a call
 * leaves the process (the local IAM guard), as IAM would. Path-style requests (the SDK uses them
 * for an IP endpoint):
 * - `PUT /<bucket>/<key>` (PutObject): keeps the body and its content type, in memory;
 * - `DELETE /<bucket>/<key>` (DeleteObject): 204, whether or not it was there (as S3);
 * - `GET /<bucket>/<key>` with a SigV4 **presigned query** (X-Amz-Algorithm ... X-Amz-Signature):
 *   verified as S3 does (signature over the canonical request with the local credentials, expiry
 *   from X-Amz-Date + X-Amz-Expires); 403 `SignatureDoesNotMatch` / `AccessDenied` (expired) in
 *   S3's XML error form, 404 `NoSuchKey`.
 * Requests signed in headers (the SDK's own calls) are not re-verified here: the guard already
 * checked the caller's policy. The recordings bucket stays served in process (scripts/local/aws.ts).
 */

/** The credentials every local function signs with (scripts/local/aws.ts runtimeEnvironment). */
const LOCAL_SECRET = 'local';

interface StoredObject {
  body: Buffer;
  contentType: string;
}

const xmlError = (res: ServerResponse, status: number, code: string, message: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
};

const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const hmac = (key: Buffer | string, value: string) => createHmac('sha256', key).update(value).digest();

/** Why a presigned GET is refused (undefined: valid), per SigV4 query signing. */
export const presignProblem = (
  method: string,
  url: URL,
  host: string,
  now: Date,
): { code: string; message: string } | undefined => {
  const q = url.searchParams;
  const signature = q.get('X-Amz-Signature');
  const date = q.get('X-Amz-Date') ?? '';
  const expires = Number(q.get('X-Amz-Expires'));
  const credential = q.get('X-Amz-Credential') ?? '';
  if (!signature || q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !/^\d{8}T\d{6}Z$/.test(date))
    return { code: 'AccessDenied', message: 'Query-string authentication is required' };
  const signedAt = Date.parse(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  if (
    !Number.isInteger(expires) ||
    expires < 1 ||
    expires > 604_800 ||
    now.getTime() > signedAt + expires * 1000
  )
    return { code: 'AccessDenied', message: 'Request has expired' };
  const [, day, region, service] = credential.split('/');
  if (!day || !region || !service)
    return { code: 'AuthorizationQueryParametersError', message: 'Bad credential' };
  const query = [...q.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const signedHeaders = q.get('X-Amz-SignedHeaders') ?? 'host';
  const headers = signedHeaders
    .split(';')
    .map((name) => `${name}:${name === 'host' ? host : ''}\n`)
    .join('');
  const payload = q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  const canonical = [method, url.pathname, query, headers, signedHeaders, payload].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${LOCAL_SECRET}`, day), region), service), 'aws4_request');
  const expected = Buffer.from(hmac(key, toSign).toString('hex'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return {
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided',
    };
  return undefined;
};

export interface S3StandIn {
  endpoint: string;
  /** An object as stored (tests), or undefined. */
  object(bucket: string, key: string): StoredObject | undefined;
  stop(): Promise<void>;
}

/** Starts the S3 stand-in on a free loopback port. */
export const startS3StandIn = async (options: { now?: () => Date } = {}): Promise<S3StandIn> => {
  const now = options.now ?? (() => new Date());
  const objects = new Map<string, StoredObject>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host ?? '';
    const url = new URL(req.url ?? '/', `http://${host}`);
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (!bucket || !key) return xmlError(res, 400, 'InvalidRequest', 'Path-style /<bucket>/<key> only');
    const id = `${bucket}/${key}`;
    if (req.method === 'PUT') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      objects.set(id, {
        body: Buffer.concat(chunks),
        contentType: req.headers['content-type'] ?? 'binary/octet-stream',
      });
      res.writeHead(200, { etag: `"${createHash('md5').update(Buffer.concat(chunks)).digest('hex')}"` });
      return res.end();
    }
    if (req.method === 'DELETE') {
      objects.delete(id);
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET') {
      const problem = presignProblem('GET', url, host, now());
      if (problem) return xmlError(res, 403, problem.code, problem.message);
      const object = objects.get(id);
      if (!object) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.body.length });
      return res.end(object.body);
    }
    return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => xmlError(res, 500, 'InternalError', error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    object: (bucket, key) => objects.get(`${bucket}/${key}`),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
