import { type EntitlementRecord, entitlementsOf, grants } from './entitlement-repository.ts';

/** One entitlement as the API shows it (the `Entitlement` schema), with whether it lets its holder play now. */
export const entitlementView = (e: EntitlementRecord, now: Date) => ({
  kind: e.kind,
  creator_id: e.creator_id,
  content_id: e.content_id,
  status: e.status,
  source: e.source,
  valid_until: e.valid_until,
  grace_until: e.grace_until,
  cancel_at_period_end: e.cancel_at_period_end,
  grants_access: grants(e, now),
});

/** `GET /me/entitlements`: everything the caller holds, with whether it lets them play now. */
export const myEntitlements = async (accountId: string, now: Date) => ({
  entitlements: (await entitlementsOf(accountId)).map((e) => entitlementView(e, now)),
});
