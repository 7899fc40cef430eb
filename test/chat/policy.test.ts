import { describe, expect, it } from 'vitest';
import { type ChatSettings, DEFAULT_CHAT_SETTINGS } from '../../shared/chat/chat-repository.ts';
import {
  CHAT_MODERATOR_SESSION_MINUTES,
  CHAT_SESSION_MINUTES,
  type ChatViewer,
  decideChatAccess,
} from '../../shared/chat/policy.ts';

/** A small deterministic PRNG (mulberry32): the same cases on every run, thousands of them. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const NOW = new Date('2026-11-29T18:00:00.000Z');
const CREATOR = 'acc_creator00001';
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();

describe('chat token decisions (shared/chat/policy.ts)', () => {
  const random = prng(39);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const cases = Array.from({ length: 5000 }, () => {
    const settings: ChatSettings = {
      ...DEFAULT_CHAT_SETTINGS,
      subscribers_only: random() < 0.3,
      followers_only_minutes: pick([null, 0, 10, 10_000]),
      established_only_minutes: pick([null, 0, 60, 100_000]),
      emote_only: random() < 0.2,
      slow_mode_seconds: pick([0, 5, 60]),
    };
    const accountId = pick([CREATOR, 'acc_viewer00001', 'acc_viewer00002']);
    const ban = pick([
      undefined,
      { account_id: accountId, until: null, reason: 'spam', by: CREATOR, at: minutesAgo(5) },
      { account_id: accountId, until: minutesAgo(-10), reason: 'timeout', by: CREATOR, at: minutesAgo(1) },
      {
        account_id: accountId,
        until: minutesAgo(10),
        reason: 'expired timeout',
        by: CREATOR,
        at: minutesAgo(20),
      },
    ]);
    const viewer: ChatViewer | undefined =
      random() < 0.15
        ? undefined
        : {
            accountId,
            displayName: pick(['maya', '"><script>', 'x'.repeat(64)]),
            accountCreatedAt: minutesAgo(pick([1, 120, 1_000_000])),
            followedAt: pick([null, minutesAgo(1), minutesAgo(100_000)]),
            subscribed: random() < 0.4,
            moderator: random() < 0.3,
            ban,
          };
    const channel = { creatorId: CREATOR, requiresSubscription: random() < 0.3 };
    return { settings, viewer, channel, decision: decideChatAccess({ channel, settings, viewer, now: NOW }) };
  });

  it('a banned or timed-out account never gets a token, whatever the rest (5,000 generated cases)', () => {
    const banned = cases.filter(
      (c) =>
        c.viewer &&
        c.viewer.accountId !== CREATOR &&
        c.viewer.ban &&
        (c.viewer.ban.until === null || Date.parse(c.viewer.ban.until) > NOW.getTime()),
    );
    expect(banned.length).toBeGreaterThan(500);
    for (const c of banned) expect(c.decision).toMatchObject({ kind: 'refused', reason: 'banned' });
  });

  it('capabilities never exceed the role: anonymous none, viewers SEND_MESSAGE at most, the creator and moderators all three', () => {
    for (const c of cases) {
      if (c.decision.kind !== 'token') continue;
      const { capabilities } = c.decision;
      if (!c.viewer) expect(capabilities).toEqual([]);
      else if (c.viewer.accountId === CREATOR || c.viewer.moderator)
        expect(capabilities).toEqual(['SEND_MESSAGE', 'DELETE_MESSAGE', 'DISCONNECT_USER']);
      else expect(['', 'SEND_MESSAGE']).toContain(capabilities.join(','));
    }
  });

  it("a moderator's session is the short one (IVS Chat revokes no token: a removed moderator's unused one moderates that long); everyone else's an hour", () => {
    for (const c of cases) {
      if (c.decision.kind !== 'token') continue;
      const moderator = c.viewer && c.viewer.accountId !== CREATOR && c.viewer.moderator;
      expect(c.decision.sessionMinutes).toBe(
        moderator ? CHAT_MODERATOR_SESSION_MINUTES : CHAT_SESSION_MINUTES,
      );
    }
  });

  it('modes exclude viewers, with the reason; a paywalled chat refuses whom playback refuses', () => {
    for (const c of cases) {
      const v = c.viewer;
      if (!v || v.accountId === CREATOR || v.moderator || c.decision.kind !== 'token') continue;
      const reason = c.decision.readOnlyReason;
      expect(reason === null).toBe(c.decision.capabilities.includes('SEND_MESSAGE'));
      if (c.settings.subscribers_only && !v.subscribed) expect(reason).toBe('subscribers_only');
      if (c.channel.requiresSubscription) expect(v.subscribed).toBe(true);
    }
    const paywalledAnonymous = cases.filter((c) => !c.viewer && c.channel.requiresSubscription);
    expect(paywalledAnonymous.length).toBeGreaterThan(0);
    for (const c of paywalledAnonymous) expect(c.decision).toMatchObject({ reason: 'subscription_required' });
  });

  it('token attributes are the display name and badges, nothing else', () => {
    for (const c of cases) {
      if (c.decision.kind !== 'token' || !c.viewer) continue;
      expect(Object.keys(c.decision.attributes).sort()).toEqual(['badges', 'display_name']);
      const badges = c.decision.attributes.badges?.split(',').filter(Boolean) ?? [];
      expect(badges.every((b) => ['creator', 'moderator', 'subscriber'].includes(b))).toBe(true);
      expect(badges.includes('creator')).toBe(c.viewer.accountId === CREATOR);
    }
  });

  it('follow age and account age count in minutes', () => {
    const base = { channel: { creatorId: CREATOR, requiresSubscription: false }, now: NOW };
    const viewer: ChatViewer = {
      accountId: 'acc_v',
      displayName: 'v',
      accountCreatedAt: minutesAgo(30),
      followedAt: minutesAgo(5),
      subscribed: false,
      moderator: false,
      ban: undefined,
    };
    const with_ = (s: Partial<ChatSettings>) =>
      decideChatAccess({ ...base, viewer, settings: { ...DEFAULT_CHAT_SETTINGS, ...s } });
    expect(with_({ followers_only_minutes: 5 })).toMatchObject({ capabilities: ['SEND_MESSAGE'] });
    expect(with_({ followers_only_minutes: 6 })).toMatchObject({ readOnlyReason: 'followers_only' });
    expect(with_({ established_only_minutes: 30 })).toMatchObject({ capabilities: ['SEND_MESSAGE'] });
    expect(with_({ established_only_minutes: 31 })).toMatchObject({ readOnlyReason: 'established_only' });
  });
});
