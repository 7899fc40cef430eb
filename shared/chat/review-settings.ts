import { perContainer } from '../aws/local-hook.ts';
import {
  type ChatBan,
  type ChatSettings,
  creatorOfRoom,
  DEFAULT_CHAT_SETTINGS,
  getBan,
  getChatSettings,
  isModerator,
} from './chat-repository.ts';
import { type FoldedTerms, foldTerms, type SenderStanding } from './review.ts';
import { getEntitlement, grants } from '../entitlements/entitlement-repository.ts';
import { getCreator } from '../creators/creator-repository.ts';

/**
 * The review handler's settings, cached in the container (docs/chat.md "Review"): a room's
 * creator once (it never changes), its settings and whether its channel is paywalled (the creator
 * item) for SETTINGS_TTL_MS, so a change reaches every
 * container within that time and a warm handler makes no network call for the messages between.
 * The blocked terms are folded once per load. The sender's ban on the channel is read the same
 * way, per sender, for the same time: a token issued before a ban opens a connection until it
 * expires (IVS has no token revocation), and this is what refuses its messages.
 */
export const SETTINGS_TTL_MS = 10_000;

/** `paywalled`: the channel requires a subscription (its chat is its subscribers', as its playback). */
export type ReviewSettings = ChatSettings & { folded: FoldedTerms; paywalled: boolean };

const rooms = /* @__PURE__ */ perContainer(() => new Map<string, Promise<string | null>>());
type Cache<T> = Map<string, { loadedAt: number; value: Promise<T> }>;
const cache = /* @__PURE__ */ perContainer((): Cache<ReviewSettings> => new Map());

const OFF: ReviewSettings = { ...DEFAULT_CHAT_SETTINGS, folded: foldTerms([]), paywalled: false };

/** Senders whose ban was looked up lately, per room. */
const bans = /* @__PURE__ */ perContainer((): Cache<ChatBan | undefined> => new Map());
/** Senders whose moderator item, and whose subscription, were looked up lately, per room. */
const moderators = /* @__PURE__ */ perContainer((): Cache<boolean> => new Map());
const subscriptions = /* @__PURE__ */ perContainer((): Cache<boolean> => new Map());
/** Entries a cache keeps; past it the least recently loaded goes first. */
const MAX_CACHED = 50_000;

/**
 * The creator whose channel the room is (null: not one of ours, or not yet written), looked up
 * once per container: a room's creator never changes. Only a room found is remembered.
 */
const creatorOf = (roomArn: string): Promise<string | null> => {
  const hit = rooms().get(roomArn);
  if (hit) return hit;
  const found = creatorOfRoom(roomArn).then((id) => id ?? null);
  rooms().set(roomArn, found);
  const forget = () => rooms().delete(roomArn);
  found.then((id) => {
    if (!id) forget();
  }, forget);
  return found;
};

const load = async (roomArn: string): Promise<ReviewSettings> => {
  const creatorId = await creatorOf(roomArn);
  if (!creatorId) return OFF; // not one of our rooms (or not yet written): no rules of ours
  const [settings, creator] = await Promise.all([getChatSettings(creatorId), getCreator(creatorId)]);
  return {
    ...settings,
    folded: foldTerms(settings.blocked_terms),
    paywalled: Boolean(creator?.channel.requires_subscription),
  };
};

/** `key`'s entry of `entries`, read by `read` when absent or older than the TTL; a failed load is not cached. */
const cached = <T>(entries: Cache<T>, key: string, nowMs: number, read: () => Promise<T>): Promise<T> => {
  const hit = entries.get(key);
  if (hit && nowMs - hit.loadedAt < SETTINGS_TTL_MS) return hit.value;
  const value = read();
  entries.delete(key);
  entries.set(key, { loadedAt: nowMs, value });
  if (entries.size > MAX_CACHED) entries.delete(entries.keys().next().value as string);
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
};

/** The room's settings: cached, reloaded after the TTL. */
export const reviewSettings = (roomArn: string, nowMs: number): Promise<ReviewSettings> =>
  cached(cache(), roomArn, nowMs, () => load(roomArn));

/** The sender's ban on the room's channel, if one is stored: cached per sender, reloaded after the TTL. */
export const senderBan = (roomArn: string, userId: string, nowMs: number): Promise<ChatBan | undefined> =>
  cached(bans(), `${roomArn}|${userId}`, nowMs, async () => {
    const creatorId = await creatorOf(roomArn);
    return creatorId ? getBan(creatorId, userId) : undefined;
  });

/**
 * What the table says of the sender now (`SenderStanding`): their ban, and whether they are still
 * a moderator or a subscriber when their token's badges claim it (a removed moderator's or a
 * lapsed subscriber's token keeps its badges for its session). Each cached per sender for the
 * TTL; the reads side by side (GetItems: the ban, the moderator item, the subscription entitlement).
 */
export const senderStanding = async (
  roomArn: string,
  userId: string,
  badges: ReadonlySet<string>,
  nowMs: number,
): Promise<SenderStanding> => {
  const key = `${roomArn}|${userId}`;
  const ofChannel = (read: (creatorId: string) => Promise<boolean>) => async () => {
    const creatorId = await creatorOf(roomArn);
    return creatorId ? read(creatorId) : false;
  };
  const [ban, moderator, subscribed] = await Promise.all([
    senderBan(roomArn, userId, nowMs),
    badges.has('moderator')
      ? cached(
          moderators(),
          key,
          nowMs,
          ofChannel((creatorId) => isModerator(creatorId, userId)),
        )
      : undefined,
    badges.has('subscriber')
      ? cached(
          subscriptions(),
          key,
          nowMs,
          ofChannel(async (creatorId) =>
            grants(await getEntitlement(userId, { kind: 'subscription', creatorId }), new Date(nowMs)),
          ),
        )
      : undefined,
  ]);
  return { ban, moderator, subscribed };
};
