import { awsClient, perContainer } from './local-hook.ts';

/**
 * The KMS client of a container and the commands its users send (./kms-commands.ts), loaded at
 * first use (a dynamic import) and registered with `awsClient`, so the local platform's IAM guard
 * and KMS stand-in see its calls. One for every KMS user that encrypts
 * or MACs: TOTP secrets (shared/identity/totp-secret-box.ts), one-time codes
 * (shared/identity/email-verification.ts), webhook secrets (shared/webhooks/secrets.ts).
 */
export const kms = /* @__PURE__ */ perContainer(() =>
  import('./kms-commands.ts').then((sdk) => ({ sdk, client: awsClient(new sdk.KMSClient({}), 'kms') })),
);
