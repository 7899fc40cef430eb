import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '../db/document.ts';
import { batchGet, batchPutDelete } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { TABLE, tableName } from '../db/table.ts';
import { type TransactOperation, transactWriteIf, writeIf } from '../db/transaction.ts';

/**
 * Live chat's items (docs/chat.md "Data"): the one module that knows their keys.
 * - room lookup: PK `CHATROOM#<room arn>`, SK `ROOM` → `creator_id` (entity `chat-room`), written
 *   with the channel (shared/studio/channel-writes.ts): how the review handler finds the settings
 *   of the room a message is in;
 * - settings:    PK `CHAT#<creator>`, SK `SETTINGS` (entity `chat-settings`);
 * - moderator:   PK `CHAT#<creator>`, SK `MOD#<account>` (entity `chat-moderator`);
 * - ban:         PK `CHAT#<creator>`, SK `BAN#<account>` (entity `chat-ban`), by account id, so a
 *   ban sticks across name changes; `until` null is permanent, else a timeout;
 * - action:      PK `CHAT#<creator>`, SK `ACTION#<at>#<id>` (entity `chat-action`): the record of
 *   every moderation action (who, what, when), written in the same transaction as the change it
 *   records; its insert on the table stream becomes the domain event (shared/events/changes.ts);
 * - reference:   PK `ACCOUNT#<account>`, SK `CHATREF#<PK>#<SK>` (entity `chat-reference`): one per
 *   item of another creator's chat that names the account (its ban or moderator item, an action
 *   on it or by it as a moderator), written in the same transaction: how an account's export and
 *   its deletion find what chats keep about it without a Scan (docs/accounts.md);
 * - token record: PK `ACCOUNT#<account>`, SK `CHATTOKEN#<room arn>#<session>` (entity
 *   `chat-token`): a room one of the account's sessions was given a chat token for, written beside
 *   each CreateChatToken (one per session and room: the session's next token replaces it), with
 *   when it was made and a TTL at the end of that token's session: how the account's deletion and
 *   "sign out everywhere" find the rooms to call DisconnectUser in, and which of them a signed-out
 *   session may still open a connection in (one strongly consistent Query of the partition's
 *   `CHATTOKEN#` range; docs/chat.md "Ending an account's connections").
 */

/** A channel's chat rules (`PUT /studio/chat/settings`); absent item = all off. */
export interface ChatSettings {
  slow_mode_seconds: number;
  followers_only_minutes: number | null;
  subscribers_only: boolean;
  emote_only: boolean;
  established_only_minutes: number | null;
  blocked_terms: string[];
}

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  slow_mode_seconds: 0,
  followers_only_minutes: null,
  subscribers_only: false,
  emote_only: false,
  established_only_minutes: null,
  blocked_terms: [],
};

export interface ChatBan {
  account_id: string;
  /** ISO 8601 end of a timeout; null: permanent until lifted. */
  until: string | null;
  reason: string;
  by: string;
  at: string;
}

export interface ChatModerator {
  account_id: string;
  added_by: string;
  added_at: string;
}

export const CHAT_ACTIONS = [
  'user_banned',
  'user_unbanned',
  'message_deleted',
  'moderator_added',
  'moderator_removed',
  'settings_changed',
] as const;
export type ChatActionKind = (typeof CHAT_ACTIONS)[number];

/** One moderation action as recorded. */
export interface ChatAction {
  creator_id: string;
  action: ChatActionKind;
  /** The account that acted (the creator or one of their moderators). */
  by: string;
  at: string;
  /** The account acted on (bans, moderators), else null. */
  target_account_id: string | null;
  /** The deleted message's id, else null. */
  message_id: string | null;
  reason: string | null;
  /** A ban's length; null for a permanent ban and other actions. */
  duration_seconds: number | null;
}

const chatPk = (creatorId: string) => `CHAT#${creatorId}`;
const roomLookupKey = (roomArn: string) => ({ PK: `CHATROOM#${roomArn}`, SK: 'ROOM' });
const settingsKey = (creatorId: string) => ({ PK: chatPk(creatorId), SK: 'SETTINGS' });
const moderatorKey = (creatorId: string, accountId: string) => ({
  PK: chatPk(creatorId),
  SK: `MOD#${accountId}`,
});
const banKey = (creatorId: string, accountId: string) => ({ PK: chatPk(creatorId), SK: `BAN#${accountId}` });

/** The lookup item of a room, written in the channel's provisioning transaction. */
export const roomLookupItem = (roomArn: string, creatorId: string): Record<string, unknown> => ({
  ...roomLookupKey(roomArn),
  entity: 'chat-room',
  creator_id: creatorId,
});

/** Records that `roomArn` is the room of `creatorId`'s channel (a room made outside provisioning). */
export const putRoomLookup = async (roomArn: string, creatorId: string): Promise<void> => {
  await db.send(new PutCommand({ TableName: tableName(), Item: roomLookupItem(roomArn, creatorId) }));
};

/** Forgets the lookup item of a deleted room. */
export const deleteRoomLookup = async (roomArn: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: roomLookupKey(roomArn) }));
};

const get = async (Key: { PK: string; SK: string }, consistent = false) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: consistent }))).Item;

/** The creator whose channel a room is, if the room is one of ours. */
export const creatorOfRoom = async (roomArn: string): Promise<string | undefined> => {
  const item = await get(roomLookupKey(roomArn));
  return item ? String(item.creator_id) : undefined;
};

/** The channel's chat settings (defaults when never set). */
export const getChatSettings = async (creatorId: string): Promise<ChatSettings> => {
  const item = await get(settingsKey(creatorId));
  return item
    ? { ...DEFAULT_CHAT_SETTINGS, ...recordOf<Partial<ChatSettings>>(item) }
    : DEFAULT_CHAT_SETTINGS;
};

/** The account's ban on the channel, if one is stored (expired timeouts included: see `isBanned`, shared/chat/policy.ts). */
export const getBan = async (creatorId: string, accountId: string): Promise<ChatBan | undefined> => {
  const item = await get(banKey(creatorId, accountId), true);
  return item ? recordOf<ChatBan>(item) : undefined;
};

/** Does the creator have `accountId` as a chat moderator? */
export const isModerator = async (creatorId: string, accountId: string): Promise<boolean> =>
  (await get(moderatorKey(creatorId, accountId))) !== undefined;

type Key = { PK: string; SK: string };

const referenceKey = (accountId: string, key: Key): Key => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `CHATREF#${key.PK}#${key.SK}`,
});

/** A reference: the account is the item's `target` (banned, appointed, acted on) or its `actor` (a moderator). */
type Role = 'target' | 'actor';

const reference = (accountId: string, key: Key, role: Role): TransactOperation => ({
  Put: {
    TableName: tableName(),
    Item: { ...referenceKey(accountId, key), entity: 'chat-reference', ref_pk: key.PK, ref_sk: key.SK, role },
  },
});

const tokenRecordKey = (accountId: string, roomArn: string, sessionId: string | undefined): Key => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `CHATTOKEN#${roomArn}#${sessionId ?? '-'}`,
});

/** How much later than our clock IVS Chat may end a session it started (clock skew, its own latency). */
const SESSION_END_MARGIN_MS = 60_000;

/** A chat token an account was given: its room, the session it went to, when, and until when it may be open. */
export interface ChatTokenRecord {
  room_arn: string;
  /** The sign-in session (refresh family) the token was made for; absent for a token without one. */
  session_id?: string;
  /** When the token was made (ISO); absent on records written before stop 57 (their tokens have lapsed). */
  issued_at?: string;
}

/**
 * Records that `session` of `accountId` was given a chat token for `roomArn` at `now`, whose
 * session ends by `sessionEndsAt` (written beside CreateChatToken, so from our clock with a
 * margin, not IVS's answer).
 */
export const recordChatToken = async (
  accountId: string,
  sessionId: string | undefined,
  roomArn: string,
  now: Date,
  sessionEndsAt: Date,
) => {
  const until = sessionEndsAt.getTime() + SESSION_END_MARGIN_MS;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...tokenRecordKey(accountId, roomArn, sessionId),
        entity: 'chat-token',
        room_arn: roomArn,
        ...(sessionId === undefined ? {} : { session_id: sessionId }),
        issued_at: now.toISOString(),
        session_ends_by: new Date(until).toISOString(),
        [TABLE.ttlAttribute]: Math.ceil(until / 1000),
      },
    }),
  );
};

/**
 * The account's token records whose session may still be open at `now` (`items`: its account
 * partition's, as the purge reads it; DynamoDB's TTL removes ended ones late, so they are
 * filtered here).
 */
export const chatTokensIn = (items: readonly Record<string, unknown>[], now: Date): ChatTokenRecord[] =>
  items
    .filter((item) => item.entity === 'chat-token' && Number(item[TABLE.ttlAttribute]) * 1000 > now.getTime())
    .map((item) => recordOf<ChatTokenRecord>(item, { withoutTtl: true }));

/** The rooms of `tokens`, each once. */
export const roomsOf = (tokens: readonly ChatTokenRecord[]): string[] => [
  ...new Set(tokens.map((token) => token.room_arn)),
];

/** The account's token records whose session may still be open at `now`: one strongly consistent Query. */
export const chatTokensOf = async (accountId: string, now: Date): Promise<ChatTokenRecord[]> =>
  chatTokensIn(
    await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': `ACCOUNT#${accountId}`, ':sk': 'CHATTOKEN#' },
      ConsistentRead: true,
    }),
    now,
  );

/** What stands in for a deleted account that acted as a moderator (the record stays the creator's). */
export const DELETED_ACTOR = 'deleted-account';

/**
 * Writes `changes` and the record of `action` in one transaction (false: a condition failed),
 * with references for every other account the action names, to the action and to `stored` (the
 * ban or moderator item it puts, which names them too).
 */
const recorded = (action: ChatAction, changes: TransactOperation[], stored?: Key) => {
  const actionKey = { PK: chatPk(action.creator_id), SK: `ACTION#${action.at}#${randomUUID()}` };
  const named = new Map<string, Role>();
  if (action.by !== action.creator_id) named.set(action.by, 'actor');
  if (action.target_account_id !== null && action.target_account_id !== action.creator_id)
    named.set(action.target_account_id, 'target');
  const references = [...named].flatMap(([id, role]) => [
    reference(id, actionKey, role),
    ...(stored ? [reference(id, stored, role)] : []),
  ]);
  return transactWriteIf([
    ...changes,
    { Put: { TableName: tableName(), Item: { ...actionKey, entity: 'chat-action', ...action } } },
    ...references,
  ]);
};

const keyOf = (item: Record<string, unknown>): Key => ({ PK: String(item.PK), SK: String(item.SK) });

/**
 * A deleted account's purge in the chats (docs/accounts.md "Deletion"): the items of other
 * creators' chats its references (`partition`: its account partition's items) point to are
 * deleted where it is their target (its bans, its appointments, actions on it) and keep the
 * record with DELETED_ACTOR where it acted as a moderator; with `creator` (the account was a
 * creator) its whole chat goes (settings, moderators, bans, the action log), with the references
 * other accounts hold to it, and its room's lookup item. Items written before references existed
 * are not found.
 */
export const purgeChatsOf = async (
  partition: readonly Record<string, unknown>[],
  creator?: { id: string; roomArn?: string },
): Promise<void> => {
  const references = partition.filter((item) => item.entity === 'chat-reference');
  for (const ref of references.filter((r) => r.role === 'actor')) {
    const key = { PK: String(ref.ref_pk), SK: String(ref.ref_sk) };
    const field = key.SK.startsWith('MOD#') ? 'added_by' : 'by';
    // An item already gone (deleted with its own partition) stays gone.
    await writeIf({
      Update: {
        Key: key,
        UpdateExpression: 'SET #by = :deleted',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#by': field },
        ExpressionAttributeValues: { ':deleted': DELETED_ACTOR },
      },
    });
  }
  const deletes = references
    .filter((r) => r.role !== 'actor')
    .map((r) => ({ PK: String(r.ref_pk), SK: String(r.ref_sk) }));
  if (creator) {
    const own = await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': chatPk(creator.id) },
      ConsistentRead: true,
    });
    for (const item of own) {
      const key = keyOf(item);
      deletes.push(key);
      const others = [item.account_id, item.target_account_id, item.by, item.added_by].filter(
        (id): id is string => typeof id === 'string' && id !== creator.id,
      );
      for (const id of new Set(others)) deletes.push(referenceKey(id, key));
    }
    if (creator.roomArn) deletes.push(roomLookupKey(creator.roomArn));
  }
  await batchPutDelete([], deletes);
};

/**
 * What other creators' chats keep about the account (its export): the items its references name,
 * each with the `creator_id` of the chat it is in (bans and moderator items do not store it).
 */
export const chatRecordsAbout = async (partition: readonly Record<string, unknown>[]) =>
  (
    await batchGet(
      partition
        .filter((item) => item.entity === 'chat-reference')
        .map((item) => ({ PK: String(item.ref_pk), SK: String(item.ref_sk) })),
    )
  ).map((item) => {
    const { PK, SK: _sk, entity, ...record } = item;
    return { kind: String(entity), creator_id: String(PK).slice(chatPk('').length), ...record };
  });

/** Stores the channel's settings and records the change. */
export const putChatSettings = (
  creatorId: string,
  settings: ChatSettings,
  action: ChatAction,
): Promise<boolean> =>
  recorded(action, [
    {
      Put: {
        TableName: tableName(),
        Item: { ...settingsKey(creatorId), entity: 'chat-settings', ...settings },
      },
    },
  ]);

/** Appoints a moderator (idempotent: appointing again records again) and records it. */
export const putModerator = (creatorId: string, moderator: ChatModerator, action: ChatAction) =>
  recorded(
    action,
    [
      {
        Put: {
          TableName: tableName(),
          Item: { ...moderatorKey(creatorId, moderator.account_id), entity: 'chat-moderator', ...moderator },
        },
      },
    ],
    moderatorKey(creatorId, moderator.account_id),
  );

/** Removes a moderator and records it; false when they were not one. */
export const deleteModerator = (creatorId: string, accountId: string, action: ChatAction) =>
  recorded(action, [
    {
      Delete: {
        TableName: tableName(),
        Key: moderatorKey(creatorId, accountId),
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
  ]);

/** Stores a ban (replacing any earlier one) and records it. */
export const putBan = (creatorId: string, ban: ChatBan, action: ChatAction) =>
  recorded(
    action,
    [
      {
        Put: {
          TableName: tableName(),
          Item: { ...banKey(creatorId, ban.account_id), entity: 'chat-ban', ...ban },
        },
      },
    ],
    banKey(creatorId, ban.account_id),
  );

/** Lifts a ban and records it; false when there was none. */
export const deleteBan = (creatorId: string, accountId: string, action: ChatAction) =>
  recorded(action, [
    {
      Delete: {
        TableName: tableName(),
        Key: banKey(creatorId, accountId),
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
  ]);

/** Records an action that changes no item of ours (a deleted message lives in IVS only). */
export const recordAction = (action: ChatAction) => recorded(action, []);
