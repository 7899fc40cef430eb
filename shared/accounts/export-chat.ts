import type { ExportDocument } from './export-schema.ts';

type ChatRecord = ExportDocument['chat_moderation'][number];

/**
 * What the export says of a creator's chat record about the account (docs/accounts.md "Export"):
 * what was done, where, when and why, and who did it to whom by role only (`you`, the channel's
 * `creator`, a `moderator`; `you` or `another account`). The chat stores the account ids of the
 * moderator who acted and of the account a moderator acted on; the export holds the requester's
 * data and names no other person, so those ids stay out (the creator's is the record's
 * `creator_id`, the public channel the record is in).
 */
export const chatRecordForExport = (accountId: string, record: Record<string, unknown>): ChatRecord => {
  const creatorId = String(record.creator_id);
  const actor = (id: unknown) => (id === accountId ? 'you' : id === creatorId ? 'creator' : 'moderator');
  const target = (id: unknown) =>
    id === undefined || id === null ? null : id === accountId ? 'you' : 'another account';
  const optional = (field: string) => (record[field] === undefined ? {} : { [field]: record[field] });
  switch (record.kind) {
    case 'chat-ban':
      return {
        kind: 'chat-ban',
        creator_id: creatorId,
        by_role: actor(record.by),
        target_role: target(record.account_id),
        at: String(record.at),
        ...optional('until'),
        ...optional('reason'),
      };
    case 'chat-moderator':
      return {
        kind: 'chat-moderator',
        creator_id: creatorId,
        by_role: actor(record.added_by),
        target_role: target(record.account_id),
        at: String(record.added_at),
      };
    default:
      return {
        kind: 'chat-action',
        creator_id: creatorId,
        by_role: actor(record.by),
        target_role: target(record.target_account_id),
        at: String(record.at),
        ...optional('action'),
        ...optional('reason'),
        ...optional('duration_seconds'),
        ...optional('message_id'),
      };
  }
};
