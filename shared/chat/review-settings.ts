import { perContainer } from '../aws/local-hook.ts';
import {
  type ChatSettings,
  creatorOfRoom,
  DEFAULT_CHAT_SETTINGS,
  getChatSettings,
} from './chat-repository.ts';
import { type FoldedTerms, foldTerms } from './review.ts';

/**
 * The review handler's settings, cached in the container (docs/chat.md "Review"): a room's
 * creator once (it never changes), its settings for SETTINGS_TTL_MS, so a change reaches every
 * container within that time and a warm handler makes no network call for the messages between.
 * The blocked terms are folded once per load.
 */
export const SETTINGS_TTL_MS = 10_000;

export type ReviewSettings = ChatSettings & { folded: FoldedTerms };

const rooms = /* @__PURE__ */ perContainer(() => new Map<string, string | null>());
const cache = /* @__PURE__ */ perContainer(
  () => new Map<string, { loadedAt: number; settings: Promise<ReviewSettings> }>(),
);

const OFF: ReviewSettings = { ...DEFAULT_CHAT_SETTINGS, folded: foldTerms([]) };

const load = async (roomArn: string): Promise<ReviewSettings> => {
  let creatorId = rooms().get(roomArn);
  if (creatorId === undefined) {
    creatorId = (await creatorOfRoom(roomArn)) ?? null;
    if (creatorId) rooms().set(roomArn, creatorId);
  }
  if (!creatorId) return OFF; // not one of our rooms (or not yet written): no rules of ours
  const settings = await getChatSettings(creatorId);
  return { ...settings, folded: foldTerms(settings.blocked_terms) };
};

/** The room's settings: cached, reloaded after the TTL; a failed load is not cached. */
export const reviewSettings = (roomArn: string, nowMs: number): Promise<ReviewSettings> => {
  const entries = cache();
  const hit = entries.get(roomArn);
  if (hit && nowMs - hit.loadedAt < SETTINGS_TTL_MS) return hit.settings;
  const settings = load(roomArn);
  entries.set(roomArn, { loadedAt: nowMs, settings });
  settings.catch(() => {
    if (entries.get(roomArn)?.settings === settings) entries.delete(roomArn);
  });
  return settings;
};
