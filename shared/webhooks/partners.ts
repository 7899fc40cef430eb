import {
  changeStatus,
  deletePartnerApproval,
  putPartnerApproval,
  subscriptionsOf,
} from './subscription-repository.ts';

/**
 * The partner role (docs/webhooks.md, "Who may subscribe"): an operator approves an account
 * (`npm run operator -- approve-partner <account id>`), which may then subscribe to any
 * creator's PUBLIC events. Withdrawing it revokes, at once, every subscription of theirs to
 * another creator's events (`authorization_revoked`): nothing more is delivered.
 */
export const approvePartner = async (accountId: string, by: string, now: Date) => {
  await putPartnerApproval({ account_id: accountId, approved_at: now.toISOString(), approved_by: by });
  return { accountId, approvedAt: now.toISOString(), by };
};

export const revokePartner = async (accountId: string, now: Date) => {
  const hadApproval = await deletePartnerApproval(accountId);
  const others = (await subscriptionsOf(accountId)).filter((s) => s.creator_id !== accountId);
  let revoked = 0;
  for (const subscription of others) {
    const changed = await changeStatus(
      subscription,
      'authorization_revoked',
      [
        'webhook_callback_verification_pending',
        'enabled',
        'webhook_callback_verification_failed',
        'notification_failures_exceeded',
      ],
      now,
    );
    if (changed) revoked++;
  }
  return { accountId, hadApproval, revoked };
};
