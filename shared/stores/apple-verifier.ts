// Apple's verifier module and its Environment enum, not the library's index: the index also loads
// the App Store Server API client, the receipt utility and the promotional offer signer, which
// the verifying functions never use (docs/performance.md, issue 41). The verifier is the same code.
import {
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
} from '@apple/app-store-server-library/dist/jws_verification.js';
import { Environment } from '@apple/app-store-server-library/dist/models/Environment.js';
import { oncePerContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import { BadRequestError, ServiceUnavailableError } from '../errors/errors.ts';
import { keyFromSecret } from '../playback/key-secret.ts';

/**
 * The container's App Store verifier: Apple's own `SignedDataVerifier` (docs/payments.md, "App
 * stores: Apple"), configured from the deployment, never from the request: the root certificates
 * from the App Store secret (JSON `root_certificates`: base64 DER; Apple's AppleRootCA-G3 on AWS,
 * the local test CA's root locally), the bundle id, the environment, the app's Apple id, and
 * whether to check revocation online (OCSP; `true` on AWS, off offline). Only rows that need
 * `app-store` import this module, so Apple's library stays out of every other bundle.
 */
export interface AppStoreSecret {
  root_certificates: string[];
  /** The App Store Server API key (App Store Connect, Users and Access, In-App Purchase keys). */
  issuer_id?: string;
  key_id?: string;
  private_key?: string;
}

const secretText = /* @__PURE__ */ keyFromSecret('APP_STORE_SECRET_ARN');

/** The secret, checked once. */
export const appStoreSecret = /* @__PURE__ */ oncePerContainer(async (): Promise<AppStoreSecret> => {
  const parsed = JSON.parse(await secretText()) as Partial<AppStoreSecret>;
  if (!Array.isArray(parsed.root_certificates) || parsed.root_certificates.length === 0)
    throw new Error('The App Store secret has no root_certificates');
  return { ...parsed, root_certificates: parsed.root_certificates.map(String) };
});

/** The verifier, made once per container from the secret and the settings. */
export const appleVerifier = /* @__PURE__ */ oncePerContainer(async () => {
  const { root_certificates } = await appStoreSecret();
  const environment = setting('APPLE_ENVIRONMENT') as Environment;
  return new SignedDataVerifier(
    root_certificates.map((der) => Buffer.from(der, 'base64')),
    setting('APPLE_ONLINE_CHECKS') === 'true',
    environment,
    setting('APPLE_BUNDLE_ID'),
    environment === Environment.PRODUCTION ? Number(setting('APPLE_APP_ID')) : undefined,
  );
});

/**
 * Runs one verification: anything Apple did not sign for this app and environment is a 400
 * naming `what` (nothing is read or written after it); a failed online revocation check is a 503,
 * so Apple retries the notification later.
 */
export const verifiedBy = async <T>(what: string, verify: () => Promise<T>): Promise<T> => {
  try {
    return await verify();
  } catch (error) {
    if (!(error instanceof VerificationException)) throw error;
    if (error.status === VerificationStatus.RETRYABLE_VERIFICATION_FAILURE)
      throw new ServiceUnavailableError(`Could not check the ${what}'s certificates now; try again`);
    const reason =
      error.status === VerificationStatus.INVALID_APP_IDENTIFIER
        ? 'it is for another app'
        : error.status === VerificationStatus.INVALID_ENVIRONMENT
          ? 'it is for another App Store environment'
          : 'its signature or certificate chain is not valid';
    throw new BadRequestError(`Invalid ${what}: ${reason}`);
  }
};
