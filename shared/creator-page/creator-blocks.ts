import type { CreatorRecord } from '../catalog/model.ts';
import { formatCount } from '../format.ts';
import type { TalliedShow } from '../shows/show-repository.ts';
import { userSubscription } from '../entitlements/subscription-view.ts';
import type { Relationship } from '../creators/relationship-repository.ts';
import type { CreatorBlock, CreatorDetail } from '../creators/schemas.ts';
import { compareText } from '../compare.ts';

/**
 * `GET /creators/:id` blocks (spec 2.4), in render order. Pure: blocks whose content the creator
 * lacks (no shows, no free episodes) are left out rather than sent empty. Of a show it needs the
 * profile and its episode tally only (its episode count, its seasons with a free episode), so the
 * page reads no episode (docs/projections.md, "Show tallies").
 */
export const creatorBlocks = (
  creator: CreatorRecord,
  shows: readonly TalliedShow[],
  rel: Relationship,
  now: Date,
): CreatorDetail => {
  const subscription = userSubscription(rel.subscription, now);
  const byViews = [...shows].sort(
    (a, b) => b.show.total_views - a.show.total_views || compareText(a.show.id, b.show.id),
  );
  const top = byViews[0];
  const withFree = byViews.find((s) => Object.keys(s.tally.free_by_season).length > 0);
  const blocks: CreatorBlock[] = [
    {
      type: 'user',
      id: creator.id,
      name: creator.name,
      initials: creator.initials,
      avatar_color: creator.avatar_color,
      avatar_url: creator.avatar_url,
      is_verified: creator.is_verified,
      is_live: creator.live !== null,
      description: creator.description,
      tier: creator.tier,
      category: creator.category,
      audience_metrics: {
        subscribers: creator.subscribers,
        subscribers_formatted: formatCount(creator.subscribers),
        views: creator.views,
        views_formatted: formatCount(creator.views),
        followers: creator.followers ?? 0,
        followers_formatted: formatCount(creator.followers ?? 0),
        instagram_followers: creator.instagram_followers,
        instagram_followers_formatted: formatCount(creator.instagram_followers),
        youtube_subscribers: creator.youtube_subscribers,
        youtube_subscribers_formatted: formatCount(creator.youtube_subscribers),
        tiktok_followers: creator.tiktok_followers,
        tiktok_followers_formatted: formatCount(creator.tiktok_followers),
      },
      watching_now: creator.live ? creator.watching_now : 0,
      watching_now_formatted: formatCount(creator.live ? creator.watching_now : 0),
      user_state: { is_following: rel.is_following, is_subscribed: subscription.is_subscribed },
      channel_url: `/creators/${creator.slug}`,
      joined_at: creator.joined_at,
    },
  ];
  if (top) {
    blocks.push({
      type: 'top_content',
      id: top.show.id,
      title: top.show.title,
      image_url: top.show.thumbnail_url,
      year: top.show.year,
      seasons: top.show.seasons.length,
      tags: top.show.tags,
      description: top.show.description,
      starring: top.show.starring,
      subtitles: top.show.subtitles,
    });
  }
  if (withFree) {
    const free = withFree.tally.free_by_season;
    blocks.push({
      type: 'free_episodes',
      title: `Watch ${withFree.show.title} free`,
      description: `Free episodes from ${creator.name}. No subscription needed.`,
      series_id: withFree.show.id,
      seasons: withFree.show.seasons
        .filter((s) => (free[s.number] ?? 0) > 0)
        .map((s) => ({ id: `${withFree.show.id}_s${s.number}`, title: s.title })),
    });
  }
  blocks.push(
    {
      type: 'subscribe_banner',
      plan: { price: creator.plan.price, currency: creator.plan.currency, interval: creator.plan.interval },
      user_subscription: subscription,
    },
    {
      type: 'premium_content',
      premium_price: creator.premium_price,
      billing_term: creator.billing_term,
      currency: creator.plan.currency,
    },
    {
      type: 'offered_content',
      title: `What you get with ${creator.name}`,
      description: 'Every premium episode, live streams with chat, and early access to new releases.',
    },
  );
  const others = byViews.slice(1);
  if (others.length > 0) {
    blocks.push({
      type: 'other_content',
      title: `More from ${creator.name}`,
      items: others.map(({ show, tally }) => ({
        id: show.id,
        title: show.title,
        thumbnail_url: show.thumbnail_url,
        total_episodes: tally.episodes,
        year: show.year,
      })),
    });
  }
  return blocks;
};
