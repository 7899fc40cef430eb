/**
 * The store reconcile's figures (data only, so the stack and the local platform read them without
 * loading the reconcile and the store clients; shared/stores/reconcile.ts, docs/payments.md).
 */
export const STORE_RECONCILE = {
  /** How often the schedule runs it (infra/payments.ts; the local platform likewise). */
  everyHours: 6,
  /** Subscriptions whose access ended up to two days ago (a lost DID_RENEW / RENEWED) ... */
  lookbackHours: 48,
  /** ... or ends within the next day (a lost EXPIRED, REFUND or REVOKE before it matters). */
  horizonHours: 24,
  /** Calls per entitlement (the first and two retries). */
  attempts: 3,
  /** Entitlements checked at once (each is one or two store calls). */
  parallel: 8,
} as const;
