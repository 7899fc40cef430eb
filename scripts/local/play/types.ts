/** What `npm run pay -- google <type>` can make Google Play do (Real-time developer notification names). */
export const GOOGLE_PAY_TYPES = [
  'PURCHASED',
  'RENEWED',
  'IN_GRACE_PERIOD',
  'ON_HOLD',
  'RECOVERED',
  'CANCELED',
  'EXPIRED',
  'REVOKED',
  'VOIDED',
] as const;
