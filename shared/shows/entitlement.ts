import type { EpisodeRecord } from '../catalog/model.ts';
import { type EntitlementRecord, grants } from '../entitlements/entitlement-repository.ts';
import type { MediaSigner } from '../playback/media-signing.ts';

/**
 * Who may play an episode: the one entitlement rule. Every response that can carry an episode's
 * playable URL (show detail, TV show detail, creator series, most viewed, on demand, the home hero)
 * takes `is_locked` and `stream_url` from `episodePlayback`, so a locked episode never carries a
 * URL on any endpoint (docs/shows.md "Entitlement"), and an unlocked one carries it signed when the
 * media CDN requires a signature (recordings: shared/playback/media-signing.ts). Pure: the caller
 * resolves the viewer and its signer.
 */
export interface Viewer {
  /** Creators whose subscription grants this viewer access now (`grants`, shared/entitlements). */
  readonly subscribedTo: ReadonlySet<string>;
  /** Pay-per-view items whose purchase grants this viewer access now. */
  readonly purchased: ReadonlySet<string>;
  /** The URL this viewer plays for a stored media URL (signed where the CDN requires it). */
  readonly play: MediaSigner;
  /**
   * The caller's account id, which is its creator id when it is a creator: a creator plays their
   * own episodes whatever their access (they cannot buy them: shared/payments/checkout.ts).
   */
  readonly accountId?: string;
}

/** No token, or a view that does not resolve its caller: only free episodes play. */
export const anonymous = (play: MediaSigner): Viewer => ({
  subscribedTo: new Set(),
  purchased: new Set(),
  play,
});

/**
 * The viewer a request resolves: what its entitlements grant at `now` (the only input of the
 * paywall besides ownership), and who it is (`accountId`: a creator's own episodes play for them).
 */
export const entitledViewer = (
  entitlements: readonly EntitlementRecord[],
  now: Date,
  play: MediaSigner,
  accountId: string | undefined,
): Viewer => {
  const granting = entitlements.filter((e) => grants(e, now));
  return {
    subscribedTo: new Set(granting.filter((e) => e.kind === 'subscription').map((e) => e.creator_id)),
    purchased: new Set(
      granting.flatMap((e) => (e.kind === 'purchase' && e.content_id ? [e.content_id] : [])),
    ),
    play,
    accountId,
  };
};

type Gated = Pick<EpisodeRecord, 'access' | 'creator_id' | 'id'>;

/**
 * Locked unless: the episode is the viewer's own (its creator is the caller); or it is free; or it is premium and the viewer's subscription to its
 * creator grants access; or it is pay-per-view and the viewer's purchase of it grants access.
 */
export const isLocked = (episode: Gated, viewer: Viewer): boolean => {
  if (viewer.accountId !== undefined && episode.creator_id === viewer.accountId) return false;
  switch (episode.access) {
    case 'free':
      return false;
    case 'premium':
      return !viewer.subscribedTo.has(episode.creator_id);
    case 'ppv':
      return !viewer.purchased.has(episode.id);
    default:
      return true;
  }
};

/** An episode's playback fields for `viewer`: the stream URL (signed if need be) when unlocked, `null` when locked. */
export const episodePlayback = (
  episode: Gated & Pick<EpisodeRecord, 'stream_url'>,
  viewer: Viewer,
): { is_locked: boolean; stream_url: string | null } => {
  const locked = isLocked(episode, viewer);
  return { is_locked: locked, stream_url: locked ? null : viewer.play(episode.stream_url) };
};
