import { randomUUID } from 'node:crypto';
import type { ReportTargetType } from '../catalog/model.ts';
import { batchPutDelete } from '../db/batch.ts';
import { primaryKey } from '../db/key.ts';
import { recordOf } from '../db/record.ts';
import type { CreatorRecord } from '../catalog/model.ts';
import { chatTokensIn, purgeChatsOf, roomsOf } from '../chat/chat-repository.ts';
import { disconnectAccount, endChatPass } from '../chat/disconnect-account.ts';
import { creatorPartition, getStoredCreator } from '../creators/creator-repository.ts';
import { ENTITLEMENT_OBJECT_ENTITY, type EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import { channelScheduleKeys } from '../epg/program-repository.ts';
import { NotFoundError } from '../errors/errors.ts';
import { type IvsChannel, ivsChannelKey } from '../ivs/channel-repository.ts';
import { closePaymentsOf, detachPayoutAccount } from '../payments/account-closure.ts';
import type { PayoutAccount } from '../payments/payout-repository.ts';
import { showIdsOfCreator } from '../shows/show-repository.ts';
import { deleteShow } from '../studio/show-writes.ts';
import { suspendCreator } from '../studio/operator-writes.ts';
import { accountPartition, getAccount, purgeIdentity } from '../identity/account-repository.ts';
import { deleteRefreshFamily, refreshFamiliesOf } from '../identity/refresh-family-repository.ts';
import { deleteChannelAfterBroadcast, endBroadcast } from '../ivs/end-broadcast.ts';
import { deleteRoom } from '../chat/rooms.ts';
import { deleteSession } from '../audience/session-repository.ts';
import { logger } from '../observability/index.ts';
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
import { sendPasswordReset } from './password-recovery.ts';

/**
 * The account jobs worker's work (docs/accounts.md): building an export, purging a deleted
 * account, the second pass of ending its chat connections, a password-reset code asked for. Each
 * is safe to run again, so SQS's redelivery of a failed job (then its dead-letter queue) is safe:
 * an export is finished only while it is the pending one; a purge deletes what is left; a reset
 * code run again replaces the first (and counts once more in the address's daily budget).
 */
export const runAccountJob = async (job: AccountJob, now: Date): Promise<string> => {
  if (job.kind === 'password-reset') {
    await sendPasswordReset(job.email, now);
    // The same outcome for every address: the log tells no one which has an account.
    return 'password reset handled';
  }
  if (job.kind === 'export') return buildExport(job.account_id, job.export_id, now);
  if (job.kind === 'end-stream') return withdrawCreator(job.account_id, now);
  if (job.kind === 'end-chat') {
    const { since, reason, keep, only, recheck } = job;
    const rooms = await endChatPass(
      job.account_id,
      { since: new Date(since), reason, sessions: { keep, only }, recheck },
      now,
    );
    return `chat ${recheck ? 'rechecked' : 'ended'} in ${rooms} rooms`;
  }
  return purgeAccount(job.account_id, now);
};

/**
 * A deleted creator withdrawn at once, not 15 minutes later at the purge: the channel's stream
 * keys deleted, then StopStream (`endBroadcast`), then the creator hidden as an operator's
 * suspension hides one (`suspendCreator`: its page, shows, episodes and checkout answer 404, the
 * projector takes its list entries and search cards down, its chat room closes). Only for an
 * account with the tombstone; a replay (the account purged meanwhile) does nothing.
 */
const withdrawCreator = async (accountId: string, now: Date): Promise<string> => {
  const [account, creator] = await Promise.all([getAccount(accountId), getStoredCreator(accountId)]);
  if (!account?.deleted_at) return 'nothing to withdraw: the account is not deleted, or already purged';
  if (!creator) return 'not a creator';
  const stopped = creator.ivs ? (await endBroadcast(creator.ivs.channel_arn)).stopped : false;
  await suspendCreator(accountId, now);
  return stopped ? 'creator hidden, stream stopped, keys deleted' : 'creator hidden (not live)';
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

/**
 * Purges a deleted account (one with the tombstone; any other is left alone), in this order:
 * - its chat connections ended in the rooms its token records name (those opened since DELETE /me);
 * - at Stripe: its paid subscriptions cancelled now and their entitlements closed, its customer
 *   deleted (shared/payments/account-closure.ts);
 * - a creator's side: the IVS channel and its chat room deleted, the payout account detached
 *   (subscriptions to the creator cancelled), the catalogue unpublished (every show with its
 *   episodes deleted: the projector takes their list entries and search cards down), the
 *   channel's schedule, the whole chat (settings, moderators, bans, log), the IVS and room lookup
 *   items and the creator partition (profile, payout account, earnings);
 * - what others' chats keep about it (its chat references), reactions through their counters,
 *   reports with their references, watch sessions its slots name, its export document, refresh
 *   families, webhook subscriptions with their uniqueness and count items, the partition's other
 *   items (follows, entitlements and their provider objects' items: the projector moves their
 *   counters);
 * - last the profile, whose email, handle and Google markers become quarantine reservations.
 * A repeat after a failure starts where the last run stopped (what is gone is not read again).
 */
export const purgeAccount = async (accountId: string, now: Date): Promise<string> => {
  const account = await getAccount(accountId);
  if (!account) return 'purge: nothing left';
  if (!account.deleted_at) {
    logger.warn('purge refused: the account is not deleted');
    return 'purge refused';
  }
  const found = await accountPartition(accountId);
  const closed = await closePaymentsOf(
    found
      .filter((item) => item.entity === 'entitlement' || item.entity === ENTITLEMENT_OBJECT_ENTITY)
      .map((item) => recordOf<EntitlementRecord>(item)),
    found.filter((item) => item.entity === 'stripe_customer').map((c) => String(c.customer_id)),
    now,
    account.deleted_at,
  );
  // Closing an entitlement writes its provider object's item (the first one, for an entitlement
  // stored before those items existed): the partition is read again for what to delete.
  const items = closed > 0 ? await accountPartition(accountId) : found;
  const of = (entity: string) => items.filter((item) => item.entity === entity);
  // DELETE /me's passes ended the chat connections open then and any opened with a token fetched
  // before the tombstone; this is the last pass, should one of them have dead-lettered.
  await disconnectAccount(accountId, roomsOf(chatTokensIn(items, now)), 'deleted');
  const creator = await purgeCreatorSide(accountId, now);
  await purgeChatsOf(items, creator);
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
  for (const { family } of await refreshFamiliesOf(accountId)) await deleteRefreshFamily(family);
  for (const subscription of await subscriptionsOf(accountId))
    await deleteSubscription(subscription.id, accountId);
  await deleteOwnerRecords(accountId);
  const handled = new Set(['reaction', 'report_reference', 'account']);
  await batchPutDelete([], items.filter((item) => !handled.has(String(item.entity))).map(primaryKey));
  await purgeIdentity(account, now);
  return 'purged';
};

/**
 * A deleted creator's side (none for a viewer): IVS channel and chat room, payout account,
 * catalogue, schedule, lookup items and the creator partition. Answers the creator's id and chat
 * room for the chat purge.
 */
const purgeCreatorSide = async (
  accountId: string,
  now: Date,
): Promise<{ id: string; roomArn?: string } | undefined> => {
  const partition = await creatorPartition(accountId);
  const profile = partition.find((item) => item.entity === 'creator') as
    | (CreatorRecord & { ivs?: IvsChannel })
    | undefined;
  if (!profile) return undefined;
  const payouts = partition.find((item) => item.entity === 'payout_account');
  const ivs = profile.ivs;
  if (ivs) {
    // Its broadcast ended first (keys, then StopStream): IVS refuses to delete a live channel.
    await deleteChannelAfterBroadcast(ivs.channel_arn);
    if (ivs.chat_room_arn) await deleteRoom(ivs.chat_room_arn);
  }
  if (payouts) await detachPayoutAccount(payouts as unknown as PayoutAccount, now);
  for (const showId of await showIdsOfCreator(accountId))
    await deleteShow(accountId, showId).catch((error: Error) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
  await batchPutDelete(
    [],
    [
      ...(profile.channel?.channel_id ? await channelScheduleKeys(profile.channel.channel_id) : []),
      ...(ivs ? [ivsChannelKey(ivs.channel_arn)] : []),
      ...partition.map(primaryKey),
    ],
  );
  return { id: accountId, roomArn: ivs?.chat_room_arn };
};
