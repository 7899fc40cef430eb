import type { FunctionRow } from '../routing/function-row.ts';

/**
 * What the app-store capabilities of a row grant and set (called by shared/platform/access.ts, so
 * the stack and the local platform derive them alike; docs/payments.md, "App stores"):
 * - `app-store`: GetSecretValue on the App Store secret (JSON `{ root_certificates: [base64 DER],
 *   issuer_id, key_id, private_key }`: the Apple roots the signed data must chain to, and the App
 *   Store Server API key the reconcile signs its requests with), its ARN in APP_STORE_SECRET_ARN,
 *   and the app's identity: APPLE_BUNDLE_ID, APPLE_APP_ID, APPLE_ENVIRONMENT (`Production` or
 *   `Sandbox`), APPLE_ONLINE_CHECKS (OCSP revocation checks, `true` on AWS);
 * - `google-play`: GetSecretValue on the Play secret (a service account's JSON key: `client_email`,
 *   `private_key`, `token_uri`), its ARN in PLAY_SECRET_ARN, GOOGLE_PLAY_PACKAGE, and what a Pub/Sub
 *   push's OIDC token must say: PLAY_PUSH_AUDIENCE and PLAY_PUSH_SERVICE_ACCOUNT;
 * - both: STORE_PRODUCT_PREFIX (shared/stores/catalogue.ts) and the payment settings.
 * The store APIs' addresses are the stores' own unless APP_STORE_API_URL, PLAY_API_URL and
 * PLAY_PUSH_JWKS_URL name others (the local stand-ins); the stack never sets them.
 */
export interface StoreDeployment {
  appStoreSecretArn: string;
  appleBundleId: string;
  /** The app's Apple id (App Store Connect's "Apple ID"), required by the verifier in Production. */
  appleAppId: string;
  appleEnvironment: 'Production' | 'Sandbox';
  appleOnlineChecks: 'true' | 'false';
  playSecretArn: string;
  playPackageName: string;
  playPushAudience: string;
  playPushServiceAccount: string;
  productPrefix: string;
}

type StoreNeed = 'app-store' | 'google-play';

const uses = (
  row: FunctionRow,
  s: StoreDeployment | undefined,
  need: StoreNeed,
): StoreDeployment | undefined => {
  if (!row.needs?.includes(need)) return undefined;
  if (!s)
    throw new Error(
      `Function ${row.handler} needs ${need} but the deployment has no store settings (infra/payments.ts)`,
    );
  return s;
};

/** GetSecretValue on exactly the store's secret. */
export const storeStatements = (row: FunctionRow, deployment: StoreDeployment | undefined) => {
  const apple = uses(row, deployment, 'app-store');
  const google = uses(row, deployment, 'google-play');
  return [
    ...(apple ? [{ actions: ['secretsmanager:GetSecretValue'], resources: [apple.appStoreSecretArn] }] : []),
    ...(google ? [{ actions: ['secretsmanager:GetSecretValue'], resources: [google.playSecretArn] }] : []),
  ];
};

/** The store settings a row's function gets (names above). */
export const storeEnvironment = (
  row: FunctionRow,
  deployment: StoreDeployment | undefined,
): Record<string, string> => {
  const apple = uses(row, deployment, 'app-store');
  const google = uses(row, deployment, 'google-play');
  const any = apple ?? google;
  return {
    ...(apple
      ? {
          APP_STORE_SECRET_ARN: apple.appStoreSecretArn,
          APPLE_BUNDLE_ID: apple.appleBundleId,
          APPLE_APP_ID: apple.appleAppId,
          APPLE_ENVIRONMENT: apple.appleEnvironment,
          APPLE_ONLINE_CHECKS: apple.appleOnlineChecks,
        }
      : {}),
    ...(google
      ? {
          PLAY_SECRET_ARN: google.playSecretArn,
          GOOGLE_PLAY_PACKAGE: google.playPackageName,
          PLAY_PUSH_AUDIENCE: google.playPushAudience,
          PLAY_PUSH_SERVICE_ACCOUNT: google.playPushServiceAccount,
        }
      : {}),
    ...(any ? { STORE_PRODUCT_PREFIX: any.productPrefix } : {}),
  };
};

/** Placeholders for `settingsOf` (names only). */
export const STORE_PLACEHOLDERS: StoreDeployment = {
  appStoreSecretArn: 'x',
  appleBundleId: 'x',
  appleAppId: 'x',
  appleEnvironment: 'Sandbox',
  appleOnlineChecks: 'false',
  playSecretArn: 'x',
  playPackageName: 'x',
  playPushAudience: 'x',
  playPushServiceAccount: 'x',
  productPrefix: 'x',
};

/**
 * The apps' identities where a deployment gives none (the stack's and the local platform's
 * defaults; docs/payments.md "App stores: a real setup" lists what a production stage sets):
 * Sandbox with online checks off is what the local test CA can sign for; a production stage
 * sets `Production`, its App Store app id and `true`.
 */
export const STORE_DEFAULTS = {
  appleBundleId: 'tv.creators.app',
  appleAppId: '1234567890',
  appleEnvironment: 'Sandbox',
  appleOnlineChecks: 'false',
  playPackageName: 'tv.creators.app',
  playPushAudience: 'creator-streaming-play-notifications',
  playPushServiceAccount: 'play-notifications@creator-streaming.iam.gserviceaccount.com',
  productPrefix: 'tv.creators',
} as const satisfies Omit<StoreDeployment, 'appStoreSecretArn' | 'playSecretArn'>;
