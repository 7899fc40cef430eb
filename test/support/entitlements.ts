import type { EntitlementRecord } from '../../shared/entitlements/entitlement-repository.ts';
import type { MediaSigner } from '../../shared/playback/media-signing.ts';
import { entitledViewer, type Viewer } from '../../shared/shows/entitlement.ts';

const NOW = new Date('2026-06-01T00:00:00.000Z');

/** An entitlement record with defaults: an active Stripe subscription paid up for a month from NOW. */
export const entitlement = (fields: Partial<EntitlementRecord> = {}): EntitlementRecord => ({
  account_id: 'acc_1',
  kind: 'subscription',
  creator_id: 'cr_1',
  content_id: null,
  source: 'stripe',
  status: 'active',
  valid_until: new Date(NOW.getTime() + 30 * 86_400_000).toISOString(),
  grace_until: null,
  cancel_at_period_end: false,
  started_at: NOW.toISOString(),
  observed_at: NOW.getTime(),
  provider: {},
  ...fields,
});

/** The viewer whose entitlements are a subscription to `creatorId` (when `subscribed`) and purchases of `purchased`. */
export const viewerFor = (
  creatorId: string,
  subscribed: boolean,
  play: MediaSigner,
  purchased: readonly string[] = [],
): Viewer =>
  entitledViewer(
    [
      ...(subscribed ? [entitlement({ creator_id: creatorId })] : []),
      ...purchased.map((id) =>
        entitlement({ kind: 'purchase', creator_id: creatorId, content_id: id, valid_until: null }),
      ),
    ],
    NOW,
    play,
    'acc_1',
  );
