/** The notification types the App Store stand-in can send (`npm run pay -- apple <type>`). */
export const APPLE_PAY_TYPES = [
  'SUBSCRIBED',
  'DID_RENEW',
  'DID_CHANGE_RENEWAL_STATUS',
  'DID_FAIL_TO_RENEW',
  'GRACE_PERIOD_EXPIRED',
  'EXPIRED',
  'REFUND',
  'REFUND_REVERSED',
  'REVOKE',
  'ONE_TIME_CHARGE',
] as const;
