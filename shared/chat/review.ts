import { hasControlCharacter, hasVisibleCharacter } from '../schema/characters.ts';
import type { ChatBan, ChatSettings } from './chat-repository.ts';
import { isBanned } from './policy.ts';

/**
 * The message review (docs/chat.md "Review"): what IVS Chat's review handler decides for one
 * message, as a pure function of the message, the channel's settings, the time and the per-user
 * slow-mode state. No network: the handler (shared/chat/review-runtime.ts) gives it cached
 * settings. Every DENY carries its reason in the response's attributes (`Reason`).
 */

/** Longest message we accept, in characters (code points); IVS's own cap on the room is 500. */
export const MAX_MESSAGE_CHARS = 300;

export type DenyReason =
  | 'banned'
  | 'too_long'
  | 'control_characters'
  | 'blocked_term'
  | 'emote_only'
  | 'slow_mode'
  | 'subscribers_only'
  | 'subscription_required'
  | 'empty';

/** What IVS Chat sends the handler (the fields we read). */
export interface ReviewEvent {
  Content: string;
  MessageId?: string;
  RoomArn: string;
  Attributes?: Record<string, string>;
  Sender: { UserId: string; Attributes?: Record<string, string>; Ip?: string };
}

/** What the handler answers IVS Chat. */
export interface ReviewResponse {
  ReviewResult: 'ALLOW' | 'DENY';
  Content?: string;
  Attributes?: Record<string, string>;
}

/**
 * Look-alikes folded onto the letter they imitate (after NFKC and accent stripping): Cyrillic and
 * Greek letters that render as Latin ones, and the digits and signs of "leet" spelling. A subset
 * of Unicode's confusables (UTS #39) for the Latin alphabet, the ones seen in evasion.
 */
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ɡ: 'g',
  һ: 'h',
  ӏ: 'i',
  ո: 'n',
  ս: 'u',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'i',
  đ: 'd',
  ı: 'i',
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'i',
  // `1` stands for `i` and `l` alike: both fold to `i` (in the terms too), as a skeleton does.
  l: 'i',
};

// biome-ignore lint/complexity/useRegexLiterals: a literal trips noMisleadingCharacterClass on the joiners and selectors this class removes one by one
const INVISIBLE = new RegExp(
  '[\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u206A-\\u206F\\uFE00-\\uFE0F\\uFEFF]',
  'g',
); // a string: selectors are matched alone on purpose

/**
 * Text folded for matching: NFKC (full-width and styled letters to plain ones), lower case,
 * accents stripped (NFD, marks removed), invisible characters removed, look-alikes folded.
 */
export const foldText = (text: string): string => {
  const plain = text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(INVISIBLE, '');
  let out = '';
  for (const ch of plain) out += CONFUSABLES[ch] ?? ch;
  return out;
};

const words = (folded: string) => folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** A blocked-term list folded once (the handler caches it with the settings). */
export interface FoldedTerms {
  /** Whole-word sequences, e.g. ` bad word `. */
  phrases: string[];
  /** Terms of 4+ letters with separators removed: also caught inside `s.p.o.i.l.e.r`. */
  squeezed: string[];
}

export const foldTerms = (terms: readonly string[]): FoldedTerms => {
  const phrases: string[] = [];
  const squeezed: string[] = [];
  for (const term of terms) {
    const w = words(foldText(term));
    if (w.length === 0) continue;
    phrases.push(` ${w.join(' ')} `);
    const joined = w.join('');
    if (joined.length >= 4) squeezed.push(joined);
  }
  return { phrases, squeezed };
};

/** Does `content` hold a blocked term (whole words, or a 4+ letter term with anything between its letters)? */
export const hasBlockedTerm = (content: string, terms: FoldedTerms): boolean => {
  if (terms.phrases.length === 0) return false;
  const w = words(foldText(content));
  const spaced = ` ${w.join(' ')} `;
  const squeezed = w.join('');
  return terms.phrases.some((p) => spaced.includes(p)) || terms.squeezed.some((t) => squeezed.includes(t));
};

const EMOTE = /:[a-z0-9_+-]{1,32}:/gi;
// biome-ignore lint/complexity/useRegexLiterals: a literal trips noMisleadingCharacterClass on the joiners and selectors this class removes one by one
const EMOJI = new RegExp(
  '[\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\p{Regional_Indicator}\\u200D\\uFE0F\\u20E3]',
  'gu',
); // a string: joiners are matched alone on purpose
/** Only emotes (`:name:` codes, emoji) and spaces. */
export const isEmoteOnly = (content: string): boolean =>
  content.replace(EMOTE, '').replace(EMOJI, '').trim() === '' && content.trim() !== '';

/** Last accepted message per room and user, for slow mode (a container's memory). */
export type SlowModeState = Map<string, number>;

export const badgesOf = (event: ReviewEvent): Set<string> =>
  new Set((event.Sender.Attributes?.badges ?? '').split(',').filter(Boolean));

/**
 * A DENY with its reason in `Attributes.Reason`: IVS Chat answers the sender an ERROR 406 whose
 * ErrorMessage is that value (the Chat user guide, "Message Review Handler"), so the client can
 * say why (docs/chat.md "Review").
 */
const deny = (reason: DenyReason): ReviewResponse => ({
  ReviewResult: 'DENY',
  Attributes: { Reason: reason },
});

/**
 * What the table says of a message's sender now, beside what their token said when issued (its
 * badges): their ban on the channel, and, checked only when the token claims them, whether they
 * are still a moderator and still a subscriber. A token lasts its session (an hour) and IVS Chat
 * revokes none, so a removed moderator's or a lapsed subscriber's token still carries the badge;
 * `false` takes it away here. Undefined: not checked (the badge stands).
 */
export interface SenderStanding {
  ban?: ChatBan;
  moderator?: boolean;
  subscribed?: boolean;
}

/** The badges of the sender's token that still hold (`standing`): a claim checked and found false is dropped. */
const standingBadges = (event: ReviewEvent, standing: SenderStanding): Set<string> => {
  const badges = badgesOf(event);
  if (standing.moderator === false) badges.delete('moderator');
  if (standing.subscribed === false) badges.delete('subscriber');
  return badges;
};

/**
 * The decision for one message. Checked in order: the sender's ban on the channel (`ban`, in force
 * at `nowMs`: a token issued before the ban still connects, so its messages are refused here), empty
 * (nothing visible), length, control characters (as display text: shared/schema/characters.ts),
 * blocked terms (for everyone, moderators included; these two also in the message's attributes,
 * which every client receives with it), then, for viewers only (the creator and moderators are exempt, by the
 * badges our token put in the sender's attributes that still hold: `standingBadges`): a paywalled
 * channel's subscription (a subscriber's token whose subscription no longer grants), subscribers-only (a token issued before the
 * mode was switched on), emote-only, slow mode. An allowed message counts for slow mode.
 */
export const reviewMessage = (
  event: ReviewEvent,
  settings: ChatSettings & { folded: FoldedTerms; paywalled?: boolean },
  nowMs: number,
  slow: SlowModeState,
  standing: SenderStanding = {},
): ReviewResponse => {
  if (isBanned(standing.ban, new Date(nowMs))) return deny('banned');
  const content = event.Content ?? '';
  if (!hasVisibleCharacter(content)) return deny('empty');
  if ([...content].length > MAX_MESSAGE_CHARS) return deny('too_long');
  // The message's own attributes reach every client with it, beside the content: the same rules.
  const attributes = Object.entries(event.Attributes ?? {}).flat();
  if ([content, ...attributes].some((text) => hasControlCharacter(text, true)))
    return deny('control_characters');
  if ([content, ...attributes].some((text) => hasBlockedTerm(text, settings.folded)))
    return deny('blocked_term');
  const badges = standingBadges(event, standing);
  const exempt = badges.has('creator') || badges.has('moderator');
  if (!exempt) {
    // A paywalled channel's chat is its subscribers' (the token route's rule): a token issued to a
    // subscriber whose subscription lapsed, was refunded or revoked since no longer sends.
    if (settings.paywalled && !badges.has('subscriber')) return deny('subscription_required');
    if (settings.subscribers_only && !badges.has('subscriber')) return deny('subscribers_only');
    if (settings.emote_only && !isEmoteOnly(content)) return deny('emote_only');
    const key = `${event.RoomArn}|${event.Sender.UserId}`;
    const last = slow.get(key);
    if (
      settings.slow_mode_seconds > 0 &&
      last !== undefined &&
      nowMs - last < settings.slow_mode_seconds * 1000
    )
      return deny('slow_mode');
    slow.delete(key);
    slow.set(key, nowMs);
    // Bounded memory: the least recent sender goes first (a Map iterates in insertion order).
    if (slow.size > 50_000) slow.delete(slow.keys().next().value as string);
  }
  return { ReviewResult: 'ALLOW' };
};
