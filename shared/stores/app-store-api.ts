import {
  AppStoreServerAPIClient,
  Environment,
  type LastTransactionsItem,
} from '@apple/app-store-server-library';
import { oncePerContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import { appStoreSecret } from './apple-verifier.ts';

/**
 * The App Store Server API through Apple's own client (`AppStoreServerAPIClient`, which signs each
 * request with the In-App Purchase key: ES256, `aud` appstoreconnect-v1, the bundle id), made
 * once per container from the App Store secret (`issuer_id`, `key_id`, `private_key`) and the
 * settings. Its address is Apple's for APPLE_ENVIRONMENT unless APP_STORE_API_URL names another
 * (the local stand-in; the stack never sets it): the client's own fetch is replaced by one to
 * that address, with a timeout, everything else (the token, the paths, the response checks) is
 * Apple's.
 */
class ConfiguredClient extends AppStoreServerAPIClient {
  constructor(
    key: { private_key: string; key_id: string; issuer_id: string },
    bundleId: string,
    private readonly base: string,
  ) {
    super(key.private_key, key.key_id, key.issuer_id, bundleId, Environment.SANDBOX);
  }

  protected override async makeFetchRequest(
    path: string,
    query: URLSearchParams,
    method: string,
    body: string | Buffer | undefined,
    headers: { [key: string]: string },
  ) {
    const res = await fetch(`${this.base}${path}?${query}`, {
      method,
      body,
      headers,
      signal: AbortSignal.timeout(10_000),
    });
    // The library reads `ok`, `status` and `json()`, which the platform's fetch answers alike.
    return res as never;
  }
}

const apiClient = /* @__PURE__ */ oncePerContainer(async () => {
  const secret = await appStoreSecret();
  if (!secret.private_key || !secret.key_id || !secret.issuer_id)
    throw new Error('The App Store secret has no App Store Server API key (issuer_id, key_id, private_key)');
  const production = setting('APPLE_ENVIRONMENT') === Environment.PRODUCTION;
  const base =
    process.env.APP_STORE_API_URL ||
    (production ? 'https://api.storekit.apple.com' : 'https://api.storekit-sandbox.apple.com');
  return new ConfiguredClient(
    { private_key: secret.private_key, key_id: secret.key_id, issuer_id: secret.issuer_id },
    setting('APPLE_BUNDLE_ID'),
    base,
  );
});

/**
 * `getAllSubscriptionStatuses` for one subscription: the status item of `originalTransactionId`
 * (its signed transaction and renewal info, still to be verified), or undefined when Apple's
 * answer does not carry it. Throws the library's `APIException` on an error answer.
 */
export const subscriptionStatus = async (
  originalTransactionId: string,
): Promise<LastTransactionsItem | undefined> => {
  const response = await (await apiClient()).getAllSubscriptionStatuses(originalTransactionId);
  return (response.data ?? [])
    .flatMap((group) => group.lastTransactions ?? [])
    .find((item) => item.originalTransactionId === originalTransactionId);
};
