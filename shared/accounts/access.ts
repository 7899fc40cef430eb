import type { FunctionRow } from '../routing/function-row.ts';

/**
 * Where export documents are written in the exports bucket (random names under it: no account id
 * in an object key); the only objects the export grants reach.
 */
export const EXPORT_KEY_PREFIX = 'exports/';

/**
 * What the account capabilities of a route row grant and set (called by shared/platform/access.ts,
 * so the stack and the local platform derive them the same way; docs/accounts.md):
 * - `exports-writer`: s3:PutObject and s3:DeleteObject on the exports bucket's objects under
 *   EXPORT_KEY_PREFIX; EXPORTS_BUCKET.
 * - `exports-reader`: s3:GetObject on them (a presigned GET URL acts with its signer's grant);
 *   EXPORTS_BUCKET.
 * - `account-jobs`: sqs:SendMessage on the account jobs queue (exports to build, deletions to
 *   carry out; shared/accounts/jobs.ts); ACCOUNT_JOBS_QUEUE_URL.
 * - `analytics-pseudonym`: secretsmanager:GetSecretValue on the pseudonym key (the HMAC key that
 *   replaces account ids in analytics rows); its ARN in PSEUDONYM_SECRET_ARN.
 */
export interface AccountsDeployment {
  exportsBucketName: string;
  exportsBucketArn: string;
  pseudonymSecretArn: string;
  jobsQueueUrl: string;
  jobsQueueArn: string;
}

const NEEDS = ['exports-writer', 'exports-reader', 'analytics-pseudonym', 'account-jobs'] as const;

const needed = (row: FunctionRow, a: AccountsDeployment | undefined): AccountsDeployment | undefined => {
  const uses = NEEDS.some((need) => row.needs?.includes(need));
  if (uses && !a)
    throw new Error(
      `Function ${row.handler} needs account resources but the deployment has none (infra/accounts.ts)`,
    );
  return uses ? a : undefined;
};

export const accountStatements = (row: FunctionRow, deployment: AccountsDeployment | undefined) => {
  const a = needed(row, deployment);
  if (!a) return [];
  const has = (need: (typeof NEEDS)[number]) => row.needs?.includes(need) ?? false;
  const documents = `${a.exportsBucketArn}/${EXPORT_KEY_PREFIX}*`;
  return [
    ...(has('exports-writer')
      ? [{ actions: ['s3:DeleteObject', 's3:PutObject'], resources: [documents] }]
      : []),
    ...(has('exports-reader') ? [{ actions: ['s3:GetObject'], resources: [documents] }] : []),
    ...(has('analytics-pseudonym')
      ? [{ actions: ['secretsmanager:GetSecretValue'], resources: [a.pseudonymSecretArn] }]
      : []),
    ...(has('account-jobs') ? [{ actions: ['sqs:SendMessage'], resources: [a.jobsQueueArn] }] : []),
  ];
};

export const accountEnvironment = (
  row: FunctionRow,
  deployment: AccountsDeployment | undefined,
): Record<string, string> => {
  const a = needed(row, deployment);
  if (!a) return {};
  const has = (need: (typeof NEEDS)[number]) => row.needs?.includes(need) ?? false;
  return {
    ...(has('exports-writer') || has('exports-reader') ? { EXPORTS_BUCKET: a.exportsBucketName } : {}),
    ...(has('analytics-pseudonym') ? { PSEUDONYM_SECRET_ARN: a.pseudonymSecretArn } : {}),
    ...(has('account-jobs') ? { ACCOUNT_JOBS_QUEUE_URL: a.jobsQueueUrl } : {}),
  };
};

/** Placeholders for `settingsOf` (names only). */
export const ACCOUNTS_PLACEHOLDERS: AccountsDeployment = {
  exportsBucketName: 'x',
  exportsBucketArn: 'x',
  pseudonymSecretArn: 'x',
  jobsQueueUrl: 'x',
  jobsQueueArn: 'x',
};
