import type { CategoryId, CreatorRecord } from '../catalog/model.ts';
import type { Account } from './account-repository.ts';

/**
 * When an account becomes a public creator: onboarding completed (`user_status` active) with a
 * category chosen. Accounts that never finish stay private (docs/projections.md).
 */
export const isCreatorAccount = (account: Pick<Account, 'user_status' | 'category'>): boolean =>
  account.user_status === 'active' && account.category !== undefined;

/** Initials of a display name for an avatar placeholder (up to 2 letters or digits; `?` for none). */
export const initialsOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, '')[0] ?? '')
    .join('')
    .toUpperCase()
    .slice(0, 2) || '?';

/** A fixed palette, picked by a hash of the id: the same account always gets the same colour. */
/** A creator's channel is named after them (kept in step when they rename: shared/studio/profile-writes.ts). */
export const channelNameOf = (creatorName: string) => `${creatorName} Live`;

const AVATAR_COLORS = [
  '#E4572E',
  '#29335C',
  '#F3A712',
  '#669BBC',
  '#A8C686',
  '#8E44AD',
  '#16A085',
  '#C0392B',
];
const colorOf = (id: string) => {
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return AVATAR_COLORS[hash % AVATAR_COLORS.length]!;
};

/**
 * The creator record an account becomes (its `creator_id` is the account id): name and handle
 * from the account, the chosen category, tier `silver` and no editorial flags (an operator's),
 * every counter at zero, and a channel numbered `channelNumber` that needs no subscription.
 */
export const creatorFromAccount = (
  account: Pick<Account, 'account_id' | 'creator_name' | 'handle'> & { category: CategoryId },
  channelNumber: number,
  now: Date,
): CreatorRecord => {
  const id = account.account_id;
  const slug = (account.handle ?? id).toLowerCase();
  return {
    id,
    slug,
    name: account.creator_name,
    initials: initialsOf(account.creator_name),
    avatar_color: colorOf(id),
    avatar_url: null,
    description: '',
    tier: 'silver',
    category: account.category,
    subscribers: 0,
    views: 0,
    instagram_followers: 0,
    youtube_subscribers: 0,
    tiktok_followers: 0,
    is_verified: false,
    is_hot: false,
    is_featured: false,
    joined_at: now.toISOString(),
    subscribers_7d: 0,
    channel: {
      channel_id: `ch_${id.replace(/^acc_/, '')}`,
      channel_name: channelNameOf(account.creator_name),
      channel_number: channelNumber,
      requires_subscription: false,
    },
    live: null,
    watching_now: 0,
    peak_all_time: 0,
    plan: { price: 4.99, currency: 'USD', interval: 'month' },
    premium_price: 14.99,
    billing_term: 'monthly',
  };
};
