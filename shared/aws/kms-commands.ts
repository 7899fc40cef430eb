/**
 * The names of the KMS client that shared/aws/kms.ts loads (lazily): re-exported by name, so a
 * bundle keeps these and not the package's every command, error and enum (as the token signer's
 * shared/identity/kms-sign.ts).
 */
export { DecryptCommand, EncryptCommand, GenerateMacCommand, KMSClient } from '@aws-sdk/client-kms';
