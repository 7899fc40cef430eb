import { describe, expect, it } from 'vitest';
import { chatRecordForExport } from '../../shared/accounts/export-chat.ts';
import { ExportDocument } from '../../shared/accounts/export-schema.ts';

const ME = 'ac_me';
const CREATOR = 'ac_creator';
const MODERATOR = 'ac_moderator';
const VIEWER = 'ac_viewer';

describe('chat records in the account export (docs/accounts.md "Export")', () => {
  it('a ban of the account by a moderator says a moderator banned it, not which account', () => {
    const ban = {
      kind: 'chat-ban',
      creator_id: CREATOR,
      account_id: ME,
      until: null,
      reason: 'spam',
      by: MODERATOR,
      at: '2026-12-01T00:00:00.000Z',
    };
    expect(chatRecordForExport(ME, ban)).toEqual({
      kind: 'chat-ban',
      creator_id: CREATOR,
      by_role: 'moderator',
      target_role: 'you',
      at: '2026-12-01T00:00:00.000Z',
      until: null,
      reason: 'spam',
    });
  });

  it("an action of the account as a moderator keeps what it did, not whom it did it to; the creator's appointment names the creator's role", () => {
    const action = {
      kind: 'chat-action',
      creator_id: CREATOR,
      action: 'user_banned',
      by: ME,
      at: '2026-12-01T00:00:00.000Z',
      target_account_id: VIEWER,
      message_id: null,
      reason: 'spam',
      duration_seconds: 600,
    };
    const appointed = {
      kind: 'chat-moderator',
      creator_id: CREATOR,
      account_id: ME,
      added_by: CREATOR,
      added_at: '2026-11-30T00:00:00.000Z',
    };
    const records = [chatRecordForExport(ME, action), chatRecordForExport(ME, appointed)];
    expect(records).toEqual([
      {
        kind: 'chat-action',
        creator_id: CREATOR,
        by_role: 'you',
        target_role: 'another account',
        at: '2026-12-01T00:00:00.000Z',
        action: 'user_banned',
        reason: 'spam',
        duration_seconds: 600,
        message_id: null,
      },
      {
        kind: 'chat-moderator',
        creator_id: CREATOR,
        by_role: 'creator',
        target_role: 'you',
        at: '2026-11-30T00:00:00.000Z',
      },
    ]);
    expect(JSON.stringify(records)).not.toMatch(/ac_viewer|ac_moderator/);
  });

  it('the schema keeps no other field of a chat record (an id added to the stored item stays out)', () => {
    const chat = ExportDocument.shape.chat_moderation.parse([
      {
        kind: 'chat-ban',
        creator_id: CREATOR,
        by_role: 'creator',
        target_role: 'you',
        at: 'x',
        by: MODERATOR,
      },
    ]);
    expect(chat).toEqual([
      { kind: 'chat-ban', creator_id: CREATOR, by_role: 'creator', target_role: 'you', at: 'x' },
    ]);
  });
});
