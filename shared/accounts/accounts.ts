import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../errors/errors.ts';
import { getAccount, markDeleted, normalizeEmail } from '../identity/account-repository.ts';
import type { Principal } from '../identity/principal.ts';
import { dropPendingExport, type ExportRecord, startExport } from './export-repository.ts';
import { exportView } from './export-model.ts';
import { endChatConnections } from './end-chat.ts';
import { enqueueAccountJob, PURGE_DELAY_SECONDS } from './jobs.ts';
import type { DeleteAccountBody } from './schemas.ts';

/**
 * The account routes' use cases (docs/accounts.md): an export is requested and read back, an
 * account deleted. The work itself is the account jobs worker's (shared/accounts/run-job.ts).
 */

/** Within this long of the request, every item of a deleted account is gone (the purge's wait plus its work, retries included). */
export const PURGE_WITHIN_MINUTES = 30;

/** `POST /me/export`: a new pending export and its job (409 while one is pending). */
export const requestExport = async (accountId: string, now: Date) => {
  const record: ExportRecord = {
    export_id: `exp_${randomUUID().replaceAll('-', '')}`,
    account_id: accountId,
    status: 'pending',
    requested_at: now.toISOString(),
  };
  await startExport(record, now);
  try {
    await enqueueAccountJob({ kind: 'export', account_id: accountId, export_id: record.export_id });
  } catch (error) {
    await dropPendingExport(accountId, record.export_id);
    throw error;
  }
  return exportView(record, null, now);
};

/**
 * `DELETE /me`: the tombstone (sign-in and refresh refuse the account from now on), then the
 * purge job, delayed by an access token's lifetime, and its open chat connections ended. A repeated request (the first's job could not
 * be queued) queues it again. The confirmation must name the account (its handle or email). A
 * signed-out session's token deletes nothing (401, the handler's `assertFactorPassed`).
 */
export const deleteAccount = async (caller: Principal, body: DeleteAccountBody, now: Date) => {
  const { accountId } = caller;
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  const confirm = body.confirm.trim();
  const matches =
    normalizeEmail(confirm) === account.email ||
    (account.handle !== null && confirm.replace(/^@/, '').toLowerCase() === account.handle.toLowerCase());
  if (!matches)
    throw new ValidationError([{ field: 'confirm', message: "must be this account's handle or email" }]);
  if (account.deleted_at === undefined && !(await markDeleted(accountId, now)))
    throw new ConflictError('The account changed meanwhile; retry');
  const deletedAt = account.deleted_at ?? now.toISOString();
  // With the tombstone no chat token is issued; the connections open now end now, and any opened
  // meanwhile with a token fetched before at the recheck (docs/chat.md "Ending an account's connections").
  // A creator's broadcast ends now too (its keys deleted, then StopStream), not at the purge.
  await Promise.all([
    enqueueAccountJob({ kind: 'delete', account_id: accountId }, PURGE_DELAY_SECONDS),
    enqueueAccountJob({ kind: 'end-stream', account_id: accountId }),
    endChatConnections(accountId, now, 'deleted'),
  ]);
  return {
    status: 'deleting' as const,
    deleted_at: deletedAt,
    purge_by: new Date(Date.parse(deletedAt) + PURGE_WITHIN_MINUTES * 60_000).toISOString(),
  };
};
