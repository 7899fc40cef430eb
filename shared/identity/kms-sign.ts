/**
 * The two names of the KMS client the token signer uses (shared/identity/signer.ts imports this
 * module lazily): re-exported by name, so a bundle keeps these and not the package's every
 * command, error and enum.
 */
export { KMSClient, SignCommand } from '@aws-sdk/client-kms';
