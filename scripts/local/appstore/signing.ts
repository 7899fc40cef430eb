import { createPrivateKey, type KeyObject, sign, webcrypto } from 'node:crypto';
import 'reflect-metadata'; // @peculiar/x509's dependency injection (tsyringe) needs it loaded first
import * as x509 from '@peculiar/x509';

/**
 * A test certificate authority shaped like Apple's (local-only: the App Store stand-in and the
 * tests sign with it; the back end is configured to trust its root exactly as it trusts Apple's
 * real roots on AWS). Apple's `SignedDataVerifier` checks a JWS's `x5c` chain: leaf, intermediate,
 * root; the intermediate signed by a configured root and a CA, carrying the OID
 * 1.2.840.113635.100.6.2.1 (Apple's WWDR intermediate marker); the leaf signed by the intermediate,
 * carrying 1.2.840.113635.100.6.11.1 (Apple's App Store receipt signing marker); all three valid
 * at the data's `signedDate` (online checks off) or now (on). Keys are P-256, signatures ES256.
 */
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
export const INTERMEDIATE_OID = '1.2.840.113635.100.6.2.1';
export const LEAF_OID = '1.2.840.113635.100.6.11.1';
/** ASN.1 NULL: the value Apple's certificates carry in their marker extensions. */
const NULL_VALUE = new Uint8Array([0x05, 0x00]);

export interface TestChain {
  /** DER of the root, to configure the verifier with. */
  root: Buffer;
  /** The JWS `x5c` header: leaf, intermediate, root, base64 DER. */
  x5c: [string, string, string];
  /** The leaf's private key: what signs. */
  key: KeyObject;
}

export interface ChainOptions {
  /** Leave out the intermediate's or the leaf's Apple OID (what the verifier must refuse). */
  withoutOid?: 'intermediate' | 'leaf';
  /** Validity of every certificate (default: a year ago to ten years ahead of now). */
  notBefore?: Date;
  notAfter?: Date;
  /** Sign the intermediate with another root than the one answered in `root` (a broken chain). */
  foreignRoot?: boolean;
  /** A name to tell chains apart in their subjects. */
  name?: string;
}

const keys = () =>
  webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;

let serial = 1;
const certificate = async (params: {
  subject: string;
  issuer: string;
  publicKey: webcrypto.CryptoKey;
  signingKey: webcrypto.CryptoKey;
  ca: boolean;
  oid?: string;
  notBefore: Date;
  notAfter: Date;
}) =>
  x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(2, '0'),
    subject: params.subject,
    issuer: params.issuer,
    notBefore: params.notBefore,
    notAfter: params.notAfter,
    signingAlgorithm: SIGNING,
    publicKey: params.publicKey as never,
    signingKey: params.signingKey as never,
    extensions: [
      new x509.BasicConstraintsExtension(params.ca, undefined, true),
      new x509.KeyUsagesExtension(
        params.ca
          ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
          : x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      ...(params.oid ? [new x509.Extension(params.oid, false, NULL_VALUE)] : []),
    ],
  });

/** A fresh root, intermediate and leaf (about 20 ms). */
export const makeTestChain = async (options: ChainOptions = {}): Promise<TestChain> => {
  const name = options.name ?? 'Local';
  const notBefore = options.notBefore ?? new Date(Date.now() - 365 * 86_400_000);
  const notAfter = options.notAfter ?? new Date(Date.now() + 10 * 365 * 86_400_000);
  const [rootKeys, otherRootKeys, intermediateKeys, leafKeys] = await Promise.all([
    keys(),
    keys(),
    keys(),
    keys(),
  ]);
  const rootName = `CN=${name} Test Root CA, O=Creator Streaming (local)`;
  const intermediateName = `CN=${name} Test WWDR Intermediate, O=Creator Streaming (local)`;
  const root = await certificate({
    subject: rootName,
    issuer: rootName,
    publicKey: rootKeys.publicKey,
    signingKey: rootKeys.privateKey,
    ca: true,
    notBefore,
    notAfter,
  });
  const intermediate = await certificate({
    subject: intermediateName,
    issuer: rootName,
    publicKey: intermediateKeys.publicKey,
    signingKey: (options.foreignRoot ? otherRootKeys : rootKeys).privateKey,
    ca: true,
    oid: options.withoutOid === 'intermediate' ? undefined : INTERMEDIATE_OID,
    notBefore,
    notAfter,
  });
  const leaf = await certificate({
    subject: `CN=${name} Test App Store Signing, O=Creator Streaming (local)`,
    issuer: intermediateName,
    publicKey: leafKeys.publicKey,
    signingKey: intermediateKeys.privateKey,
    ca: false,
    oid: options.withoutOid === 'leaf' ? undefined : LEAF_OID,
    notBefore,
    notAfter,
  });
  const der = (cert: x509.X509Certificate) => Buffer.from(cert.rawData);
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
  return {
    root: der(root),
    x5c: [der(leaf).toString('base64'), der(intermediate).toString('base64'), der(root).toString('base64')],
    key: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
  };
};

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** Signs `payload` as the App Store signs its data: a compact JWS, ES256, with the chain in `x5c`. */
export const signAppStoreJws = (chain: Pick<TestChain, 'x5c' | 'key'>, payload: object): string => {
  const head = `${b64url(JSON.stringify({ alg: 'ES256', x5c: chain.x5c }))}.${b64url(JSON.stringify(payload))}`;
  const signature = sign('sha256', Buffer.from(head), { key: chain.key, dsaEncoding: 'ieee-p1363' });
  return `${head}.${b64url(signature)}`;
};
