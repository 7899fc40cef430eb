import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * Checks a SigV4-signed HTTP request as AWS does for an IAM-authorised call: the `Authorization`
 * header's credential scope (service `appsync`), the signature recomputed over the signed
 * headers and the body with the caller's secret, and the clock skew (15 minutes). Locally every
 * function's secret is the same (`local`, scripts/local/aws.ts); its access key id names the
 * function, whose policy then decides (./server.ts `authorizePublish`).
 */

export interface SignedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type SignatureCheck =
  | { ok: true; accessKeyId: string; region: string }
  | { ok: false; errorType: 'UnauthorizedException' | 'ForbiddenException'; message: string };

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;
const SKEW_MS = 15 * 60_000;

const header = (headers: SignedRequest['headers'], name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
};

/** `20261129T080000Z` as a Date (undefined when malformed). */
const amzDate = (text: string | undefined): Date | undefined => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
};

export const checkSignature = async (
  request: SignedRequest,
  secretOf: (accessKeyId: string) => string | undefined,
  now: Date,
): Promise<SignatureCheck> => {
  const authorization = header(request.headers, 'authorization');
  const m = AUTH.exec(authorization ?? '');
  if (!m)
    return {
      ok: false,
      errorType: 'UnauthorizedException',
      message: 'Valid authorization header not provided.',
    };
  const [, accessKeyId = '', , region = '', service = '', signedHeaders = '', signature = ''] = m;
  const date = amzDate(header(request.headers, 'x-amz-date'));
  if (!date || Math.abs(date.getTime() - now.getTime()) > SKEW_MS)
    return {
      ok: false,
      errorType: 'ForbiddenException',
      message: 'Signature expired or x-amz-date missing.',
    };
  const secret = secretOf(accessKeyId);
  if (service !== 'appsync' || secret === undefined)
    return {
      ok: false,
      errorType: 'UnauthorizedException',
      message: 'The security token included in the request is invalid.',
    };
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) headers[name] = header(request.headers, name) ?? '';
  const [path = '/', query = ''] = request.path.split('?');
  const signer = new SignatureV4({
    service,
    region,
    sha256: Sha256,
    credentials: {
      accessKeyId,
      secretAccessKey: secret,
      ...(headers['x-amz-security-token'] ? { sessionToken: headers['x-amz-security-token'] } : {}),
    },
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: (headers.host ?? '').split(':')[0] ?? '',
      path,
      query: Object.fromEntries(new URLSearchParams(query)),
      headers,
      body: request.body,
    },
    { signingDate: date },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? ''))?.[1];
  if (expected !== signature)
    return {
      ok: false,
      errorType: 'ForbiddenException',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  return { ok: true, accessKeyId, region };
};
