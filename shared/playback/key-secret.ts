import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { awsClient, oncePerContainer, perContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';

/**
 * A private key kept in Secrets Manager, read once per container: the function's environment
 * names the secret by its ARN (an ARN is not a secret) in `arnSetting`, the function's role may
 * read only that secret, and the value (a PEM) is never logged. A key rotation changes the ARN
 * the stack gives the functions, so every container after the deployment reads the new key.
 * (Imported statically: a dynamic import would load the package whole, its tree shaking lost,
 * ~10 KB gzip more per bundle, measured.)
 */
const secrets = /* @__PURE__ */ perContainer(() => awsClient(new SecretsManagerClient({}), 'secretsmanager'));

export const keyFromSecret = (arnSetting: string): (() => Promise<string>) =>
  oncePerContainer(async () => {
    const { SecretString } = await secrets().send(
      new GetSecretValueCommand({ SecretId: setting(arnSetting) }),
    );
    if (!SecretString) throw new Error(`The secret named by ${arnSetting} has no value`);
    return SecretString;
  });
