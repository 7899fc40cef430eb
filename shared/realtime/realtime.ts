import { requireCreator } from '../creators/creator-repository.ts';
import { ConflictError, UnauthorizedError } from '../errors/errors.ts';
import { signJwt } from '../identity/access-token.ts';
import { reactionShardsOf } from '../audience/audience-scale.ts';
import { requireCreatorOnAir } from '../watch/watch-sessions.ts';
import { requireAccess } from '../entitlements/channel-access.ts';
import { creatorChannel, HOME_CHANNEL, MESSAGE_VERSION, TICK_SECONDS, tickOf } from './messages.ts';
import { countLiveReaction } from './reaction-counter.ts';
import type { LiveReactionCounted, RealtimeAccess } from './schemas.ts';
import { realtimeClaims } from './tokens.ts';

/**
 * The realtime use cases behind the HTTP endpoints (docs/realtime.md): a live reaction counted
 * into its tick, and the connection details of a channel with a token for it.
 */

/** `POST .../live/reactions`: 404 unknown creator, 409 offline; else counted into the current tick. */
export const reactLive = async (
  creatorIdOrSlug: string,
  accountId: string,
  emoji: string,
  now: Date,
): Promise<LiveReactionCounted> => {
  const creator = await requireCreatorOnAir(creatorIdOrSlug, now);
  if (!creator.live || creator.suspended_at)
    throw new ConflictError('The channel is not live: reactions are counted only during a broadcast');
  await requireAccess(creator, accountId, now);
  const tick = tickOf(now);
  await countLiveReaction(creator.id, emoji, tick, reactionShardsOf(creator));
  return { creator_id: creator.id, emoji, tick, tick_seconds: TICK_SECONDS };
};

/**
 * `GET .../live/realtime`: the endpoint, the creator's channel and a realtime token for it and the
 * home channel. An open channel admits anyone (the token's subject is `anonymous`); a channel
 * that requires a subscription only a signed-in account the entitlement rule admits (401, 403).
 */
export const realtimeAccess = async (
  creatorIdOrSlug: string,
  accountId: string | undefined,
  now: Date,
): Promise<RealtimeAccess> => {
  const creator = await requireCreator(creatorIdOrSlug);
  if (creator.channel.requires_subscription) {
    if (!accountId) throw new UnauthorizedError('Sign in: this channel requires a subscription');
    await requireAccess(creator, accountId, now);
  }
  const channel = creatorChannel(creator.id);
  const claims = realtimeClaims(accountId ?? 'anonymous', [channel, HOME_CHANNEL], now);
  const endpoint = process.env.REALTIME_WS_URL ?? '';
  return {
    endpoint,
    host: new URL(endpoint.replace(/^ws/, 'http')).host.replace('appsync-realtime-api', 'appsync-api'),
    channel,
    home_channel: HOME_CHANNEL,
    tick_seconds: TICK_SECONDS,
    message_version: MESSAGE_VERSION,
    auth: {
      type: 'AWS_LAMBDA',
      token: await signJwt(claims),
      expires_at: new Date(claims.exp * 1000).toISOString(),
    },
  };
};
