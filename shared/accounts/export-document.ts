import type { ReportTargetType } from '../catalog/model.ts';
import { chatRecordsAbout } from '../chat/chat-repository.ts';
import { getCreator } from '../creators/creator-repository.ts';
import { recordOf } from '../db/record.ts';
import { ENTITLEMENT_OBJECT_ENTITY } from '../entitlements/entitlement-repository.ts';
import { accountPartition, getAccount, isEmailVerified } from '../identity/account-repository.ts';
import { familiesOf } from '../identity/refresh-tokens.ts';
import { secondFactorsOf } from '../identity/second-factor-view.ts';
import { getSession } from '../audience/session-repository.ts';
import { earningsOf, getPayoutAccount } from '../payments/payout-repository.ts';
import { getReport } from '../reports/report-repository.ts';
import { subscriptionsOf } from '../webhooks/subscription-repository.ts';
import { chatRecordForExport } from './export-chat.ts';
import { ExportDocument } from './export-schema.ts';

type Item = Record<string, unknown>;

/** What the analytics section says (docs/accounts.md "Analytics"). */
export const ANALYTICS_NOTE =
  'Analytics events (player events and payment facts) are stored with a keyed hash in place of the account id (never the id itself), so they cannot be selected by account; what the platform keeps by account (continue watching) is in continue_watching.';

/**
 * The export document of an account (shared/accounts/export-schema.ts), read from every place the
 * platform keeps the account's data: its partition (follows, entitlements and their provider
 * objects' items, reactions, playheads,
 * report references, the Stripe customer, stream slots), its creator and payout account, its
 * earnings, reports, second factor, refresh-token families (their entries in its partition), webhook subscriptions (GSI1), the watch sessions its
 * slots name and the chat records its chat references name. Checked against the schema before it is returned (a drift is a bug, not a document).
 */
export const buildExportDocument = async (accountId: string, now: Date): Promise<ExportDocument> => {
  const [account, items, creator, payout, earnings, families, subscriptions, secondFactors] =
    await Promise.all([
      getAccount(accountId),
      accountPartition(accountId),
      getCreator(accountId),
      getPayoutAccount(accountId),
      earningsOf(accountId),
      familiesOf(accountId),
      subscriptionsOf(accountId),
      secondFactorsOf(accountId),
    ]);
  if (!account) throw new Error('The account of this export is gone');
  const of = (entity: string) =>
    items.filter((item) => item.entity === entity).map((item) => recordOf<Item>(item));
  const slots = items.filter((item) => item.entity === undefined && typeof item.session_id === 'string');
  const [reports, sessions, chat] = await Promise.all([
    Promise.all(
      of('report_reference').map((r) =>
        getReport(accountId, r.target_type as ReportTargetType, String(r.target_id)),
      ),
    ),
    Promise.all(slots.map((slot) => getSession(String(slot.session_id)))),
    chatRecordsAbout(items),
  ]);
  const customer = of('stripe_customer')[0];
  const document: ExportDocument = {
    format: 'creator-streaming.account-export',
    version: '1',
    generated_at: now.toISOString(),
    account_id: accountId,
    profile: {
      email: account.email,
      email_verified: isEmailVerified(account),
      handle: account.handle,
      creator_name: account.creator_name,
      user_status: account.user_status,
      category: account.category ?? null,
      completed_steps: account.completed_steps,
      social: (account.social ?? []).map(({ platform, connected_at }) => ({ platform, connected_at })),
      google_linked: account.google_sub !== undefined,
      created_at: account.created_at,
    },
    creator: creator ? (creator as unknown as ExportDocument['creator']) : null,
    payout_account: payout ? (payout as unknown as ExportDocument['payout_account']) : null,
    earnings: earnings.map(({ source_id, kind, currency, gross, platform_fee, net, paid_at }) => ({
      source_id,
      kind,
      currency,
      gross,
      platform_fee,
      net,
      paid_at,
    })),
    follows: of('follow') as ExportDocument['follows'],
    entitlements: of('entitlement') as ExportDocument['entitlements'],
    entitlement_sources: of(ENTITLEMENT_OBJECT_ENTITY) as ExportDocument['entitlement_sources'],
    payments: { stripe_customer_id: customer ? String(customer.customer_id) : null },
    reactions: of('reaction') as ExportDocument['reactions'],
    reports: reports.filter((r) => r !== undefined) as unknown as ExportDocument['reports'],
    continue_watching: of('progress') as ExportDocument['continue_watching'],
    watch_sessions: sessions.filter((s) => s !== undefined) as unknown as ExportDocument['watch_sessions'],
    second_factors: secondFactors,
    sign_ins: families.map(({ created_at, revoked, expires_at }) => ({ created_at, revoked, expires_at })),
    // No secret is stored with a subscription (they derive from its id in KMS): listed as kept.
    webhook_subscriptions: subscriptions as unknown as ExportDocument['webhook_subscriptions'],
    chat_moderation: chat.map((record) => chatRecordForExport(accountId, record)),
    analytics: { note: ANALYTICS_NOTE },
  };
  return ExportDocument.parse(document);
};
