import { randomUUID } from 'node:crypto';
import { DeleteChannelCommand } from '@aws-sdk/client-ivs';
import type { ReportTargetType } from '../catalog/model.ts';
import { getCreator } from '../creators/creator-repository.ts';
import { batchPutDelete } from '../db/batch.ts';
import type { EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import { accountPartition, getAccount, purgeIdentity } from '../identity/account-repository.ts';
import { deleteFamily, familiesOf } from '../identity/refresh-tokens.ts';
import { ivsClient } from '../ivs/client.ts';
import { deleteRoom } from '../chat/rooms.ts';
import { deleteSession } from '../live/session-repository.ts';
import { logger } from '../observability/index.ts';
import { stripe } from '../payments/stripe-client.ts';
import { removeReaction } from '../reactions/reaction-repository.ts';
import { deleteReport } from '../reports/report-repository.ts';
import {
  deleteOwnerRecords,
  deleteSubscription,
  subscriptionsOf,
} from '../webhooks/subscription-repository.ts';
import { buildExportDocument } from './export-document.ts';
import { finishExport, getExport } from './export-repository.ts';
import { deleteExportDocument, putExportDocument } from './export-store.ts';
import type { AccountJob } from './jobs.ts';
import { EXPORT_KEY_PREFIX } from './access.ts';

type Item = Record<string, unknown>;

/**
 * The account jobs worker's work (docs/accounts.md): building an export, purging a deleted
 * account. Both are idempotent, so SQS's redelivery of a failed job (then its dead-letter queue)
 * is safe: an export is finished only while it is the pending one; a purge deletes what is left.
 */
export const runAccountJob = async (job: AccountJob, now: Date): Promise<string> => {
  if (job.kind === 'export') return buildExport(job.account_id, String(job.export_id), now);
  return purgeAccount(job.account_id);
};

const buildExport = async (accountId: string, exportId: string, now: Date): Promise<string> => {
  const [pending, account] = await Promise.all([getExport(accountId), getAccount(accountId)]);
  if (pending?.export_id !== exportId || pending.status !== 'pending' || !account || account.deleted_at)
    return 'export dropped (replaced, or the account deleted)';
  const document = await buildExportDocument(accountId, now);
  const objectKey = `${EXPORT_KEY_PREFIX}${randomUUID()}.json`;
  await putExportDocument(objectKey, document);
  const finished = await finishExport(accountId, exportId, {
    status: 'ready',
    object_key: objectKey,
    at: now,
  });
  if (!finished) await deleteExportDocument(objectKey);
  return finished ? 'export ready' : 'export dropped after building';
};

const keyOf = (item: Item) => ({ PK: item.PK, SK: item.SK });

/**
 * Purges a deleted account (one with the tombstone; any other is left alone): the provider's
 * subscriptions cancelled now and its customer deleted, a creator's IVS channel and chat room deleted and payout
 * account detached, then every item keyed by the account: reactions through their counters,
 * reports with their references, watch sessions its slots name, its export document, refresh
 * families, webhook subscriptions with their uniqueness and count items, the partition's other
 * items (follows and entitlements: the projector moves their counters), and last the profile,
 * whose email, handle and Google markers become quarantine reservations. A repeat after a failure
 * starts where the last run stopped (what is gone is not read again).
 */
export const purgeAccount = async (accountId: string): Promise<string> => {
  const account = await getAccount(accountId);
  if (!account) return 'purge: nothing left';
  if (!account.deleted_at) {
    logger.warn('purge refused: the account is not deleted');
    return 'purge refused';
  }
  const items = await accountPartition(accountId);
  const of = (entity: string) => items.filter((item) => item.entity === entity);
  await cancelWithProvider(of('entitlement') as unknown as EntitlementRecord[], of('stripe_customer'));
  const creator = await getCreator(accountId);
  if (creator?.ivs) {
    await ivsClient()
      .send(new DeleteChannelCommand({ arn: creator.ivs.channel_arn }))
      .catch((error: Error) => {
        if (error.name !== 'ResourceNotFoundException') throw error;
      });
    if (creator.ivs.chat_room_arn) await deleteRoom(creator.ivs.chat_room_arn);
  }
  for (const reaction of of('reaction'))
    await removeReaction({
      accountId,
      targetType: String(reaction.targetType),
      targetId: String(reaction.targetId),
      emoji: String(reaction.emoji),
    });
  for (const reference of of('report_reference'))
    await deleteReport(accountId, reference.target_type as ReportTargetType, String(reference.target_id));
  const slots = items.filter((item) => item.entity === undefined && typeof item.session_id === 'string');
  for (const slot of slots) await deleteSession(String(slot.session_id));
  for (const exported of of('account_export'))
    if (typeof exported.object_key === 'string') await deleteExportDocument(exported.object_key);
  for (const { family } of await familiesOf(accountId)) await deleteFamily(family);
  for (const subscription of await subscriptionsOf(accountId))
    await deleteSubscription(subscription.id, accountId);
  await deleteOwnerRecords(accountId);
  const handled = new Set(['reaction', 'report_reference', 'account']);
  await batchPutDelete(
    [],
    items.filter((item) => !handled.has(String(item.entity))).map(keyOf) as Array<Record<string, unknown>>,
  );
  await purgeIdentity(account, new Date());
  return 'purged';
};

/**
 * Ends the account's paid relationships with Stripe now (no refund of the running period): each
 * subscription cancelled, then the customer deleted (Stripe keeps its own records of charges).
 */
const cancelWithProvider = async (entitlements: EntitlementRecord[], customers: Item[]) => {
  const subscriptions = entitlements
    .filter((e) => e.kind === 'subscription' && e.provider?.subscription_id)
    .map((e) => String(e.provider.subscription_id));
  const customerIds = customers.map((c) => String(c.customer_id));
  if (subscriptions.length === 0 && customerIds.length === 0) return;
  const client = await stripe();
  const gone = (error: { code?: string; statusCode?: number }) => {
    if (error.statusCode !== 404) throw error;
  };
  for (const id of subscriptions) await client.subscriptions.cancel(id).catch(gone);
  for (const id of customerIds) await client.customers.del(id).catch(gone);
};
