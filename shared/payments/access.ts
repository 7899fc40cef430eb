import type { FunctionRow } from '../routing/function-row.ts';

/**
 * What the `stripe` capability of a row grants and sets (called by shared/platform/access.ts, so
 * the stack and the local platform derive it the same way): secretsmanager:GetSecretValue on the
 * Stripe secret only (JSON `{secret_key, webhook_secret, connect_webhook_secret}`), its ARN in
 * STRIPE_SECRET_ARN, and the payment settings PAYMENT_GRACE_DAYS and APPLICATION_FEE_PERCENT.
 * STRIPE_API_URL is not set by the stack (the client's default, api.stripe.com); the local
 * platform sets it to its Stripe stand-in (docs/local-stripe.md).
 */
export interface PaymentDeployment {
  stripeSecretArn: string;
  /** Days of access after a failed renewal (7 by default, infra/settings.ts). */
  graceDays: string;
  /** The platform's fee on every charge, in percent. */
  applicationFeePercent: string;
}

const uses = (
  row: FunctionRow,
  p: PaymentDeployment | undefined,
  needs: ReadonlyArray<'stripe' | 'payment-settings'>,
): PaymentDeployment | undefined => {
  if (!needs.some((need) => row.needs?.includes(need))) return undefined;
  if (!p)
    throw new Error(
      `Function ${row.handler} needs payments but the deployment has no payment settings (infra/payments.ts)`,
    );
  return p;
};

/** `stripe`: GetSecretValue on the Stripe secret; `payment-settings` alone grants nothing. */
export const paymentStatements = (row: FunctionRow, deployment: PaymentDeployment | undefined) => {
  const p = uses(row, deployment, ['stripe']);
  return p ? [{ actions: ['secretsmanager:GetSecretValue'], resources: [p.stripeSecretArn] }] : [];
};

/**
 * `stripe`: the secret's ARN and the payment settings; `payment-settings` (a row that shows the
 * fee or grace but never calls Stripe, e.g. GET /studio/payouts): the settings only.
 */
export const paymentEnvironment = (
  row: FunctionRow,
  deployment: PaymentDeployment | undefined,
): Record<string, string> => {
  const p = uses(row, deployment, ['stripe', 'payment-settings']);
  if (!p) return {};
  return {
    ...(row.needs?.includes('stripe') ? { STRIPE_SECRET_ARN: p.stripeSecretArn } : {}),
    PAYMENT_GRACE_DAYS: p.graceDays,
    APPLICATION_FEE_PERCENT: p.applicationFeePercent,
  };
};

/**
 * The payment settings' defaults (the stack's and the local platform's): 7 days of grace after a
 * failed renewal (issue 36), a 10% platform fee on every charge. A deployment may set others.
 */
export const PAYMENT_DEFAULTS = { graceDays: '7', applicationFeePercent: '10' } as const;

/** Placeholders for `settingsOf` (names only). */
export const PAYMENT_PLACEHOLDERS: PaymentDeployment = {
  stripeSecretArn: 'x',
  graceDays: 'x',
  applicationFeePercent: 'x',
};
