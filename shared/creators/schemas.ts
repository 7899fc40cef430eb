import * as z from 'zod/mini';
import { CATEGORY_IDS, TIER_IDS } from '../catalog/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { enumParam, idParam, pageQuery } from '../schema/validation.ts';
import { Pagination } from '../pagination.ts';
import { totalRelation } from '../search/schemas.ts';
import { CREATOR_SORTS } from '../catalog/model.ts';
import { SUBSCRIPTION_STATUSES } from '../catalog/model.ts';

const category = /* @__PURE__ */ (() =>
  described(z._default(enumParam('category', ['all', ...CATEGORY_IDS]), 'all'), 'A category id, or `all`'))();
const tier = /* @__PURE__ */ (() =>
  described(z._default(enumParam('tier', ['all', ...TIER_IDS]), 'all'), 'A tier id, or `all`'))();

export const listCreatorsQuery = /* @__PURE__ */ (() =>
  z.object({
    category: described(category, 'Only creators of this category', 'comedy'),
    tier: described(tier, 'Only creators of this tier', 'gold'),
    sort: described(
      z._default(enumParam('sort', CREATOR_SORTS), 'most_popular'),
      'Order: most subscribers, most gained in 7 days, newest, most watched now, or by name',
      'trending',
    ),
    ...pageQuery(20),
  }))();
export type ListCreatorsQuery = z.infer<typeof listCreatorsQuery>;

export const pagedQuery10 = /* @__PURE__ */ (() => z.object({ ...pageQuery(10) }))();

/** `q` for the search endpoints: trimmed, 1-100 characters (400 without it). */
export const searchText = /* @__PURE__ */ (() =>
  described(
    z
      .string({ error: 'q is required' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'q is required' }),
        z.maxLength(100, { error: 'q must be at most 100 characters' }),
      ),
    'Words to search for, 1-100 characters',
  ))();

export const searchCreatorsQuery = /* @__PURE__ */ (() =>
  z.object({
    q: described(
      searchText,
      'Text to find in creator names and handles (1-100 characters): case- and accent-insensitive, matches word prefixes and tolerates one typo',
      'jonas',
    ),
    category: described(category, 'Only creators of this category', 'comedy'),
    tier: described(tier, 'Only creators of this tier', 'ambassador'),
    ...pageQuery(20),
  }))();
export type SearchCreatorsQuery = z.infer<typeof searchCreatorsQuery>;

export const creatorPath = /* @__PURE__ */ (() =>
  z.object({
    id: described(idParam, 'Creator id, or the slug that ends its `channel_url`', 'cr_0001'),
  }))();

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const count = (description: string, example: number) =>
    described(z.number().check(z.int()), description, example);
  const formatted = (of: string, example: string) =>
    described(z.string(), `${of}, abbreviated for display (1.2K, 3.4M)`, example);

  const Tier = named(
    'Tier',
    z.object({
      id: described(z.enum(TIER_IDS), 'Tier id', 'gold'),
      label: described(z.string(), 'Display name', 'Gold'),
    }),
    'A creator tier (spec 2.3), highest first in lists',
  );

  const CreatorSummary = named(
    'CreatorSummary',
    z.object({
      id: described(z.string(), 'Creator id', 'cr_0001'),
      name: described(z.string(), 'Display name', 'Jonas Vargas'),
      initials: described(z.string(), 'Initials for an avatar placeholder', 'JV'),
      avatar_color: described(z.string(), 'Avatar placeholder colour, `#RRGGBB`', '#7986CB'),
      avatar_url: described(
        z.nullable(z.string()),
        'Avatar image URL; null when none was uploaded',
        'https://cdn.example.com/avatars/cr_0001.jpg',
      ),
      tier: described(z.enum(TIER_IDS), 'Tier id', 'ambassador'),
      category: described(z.enum(CATEGORY_IDS), 'Category id', 'comedy'),
      subscribers: count('Subscribers', 2861407),
      subscribers_formatted: formatted('Subscribers', '2.8M'),
      is_live: described(z.boolean(), 'Live on their channel now', true),
      is_verified: described(z.boolean(), 'Verified creator', true),
      is_hot: described(z.boolean(), 'Editorially marked as hot', false),
      watching_now: count('Viewers on the live stream now (0 when offline)', 15727),
      watching_now_formatted: formatted('Viewers now', '15.7K'),
      channel_url: described(z.string(), "Path of the creator's page", '/creators/jonas_vargas'),
    }),
    'A creator as lists show them (spec 2.2)',
  );

  const CreatorList = z.object({ creators: z.array(CreatorSummary) });

  const CreatorListMeta = z.object({
    ...Pagination.shape,
    filters_applied: described(
      z.object({
        category: described(z.enum(['all', ...CATEGORY_IDS]), 'Category filter', 'all'),
        tier: described(z.enum(['all', ...TIER_IDS]), 'Tier filter', 'all'),
        sort: described(z.enum(CREATOR_SORTS), 'Order', 'most_popular'),
      }),
      'The filters and order this page was made with (defaults filled in)',
    ),
  });

  const timestamp = (description: string, example: string) =>
    described(z.string(), `${description} (ISO 8601, UTC)`, example);
  const creatorId = described(z.string(), 'Creator id', 'cr_0001');
  const showId = described(z.string(), 'Show id', 'sh_0015');
  const blockType = <T extends string>(type: T) => described(z.literal(type), 'Block type', type);

  const CreatorLiveStream = named(
    'CreatorLiveStream',
    z.object({
      stream_id: described(z.string(), 'Live stream id', 'st_cr_0001_501'),
      title: described(z.string(), 'Stream title', 'Improv with chat'),
      started_at: timestamp('When the stream started', '2025-01-15T10:23:00.000Z'),
      thumbnail_url: described(
        z.string(),
        'Stream thumbnail URL',
        'https://cdn.example.com/live/cr_0001/thumb.jpg',
      ),
    }),
    'The stream a creator is live with, as the live creator list shows it',
  );

  const LiveCreatorSummary = named(
    'LiveCreatorSummary',
    z.extend(
      z.omit(CreatorSummary, {
        category: true,
        subscribers: true,
        subscribers_formatted: true,
        is_hot: true,
      }),
      {
        stream: described(
          z.nullable(CreatorLiveStream),
          'The live stream (null if the creator went offline since the list was ranked)',
        ),
      },
    ),
    'A creator of the live list (spec 2.2): the summary without category, subscribers and is_hot, plus the stream',
  );

  const LiveCreatorList = z.object({ creators: z.array(LiveCreatorSummary) });

  const LiveCreatorListMeta = z.object({
    total_live: count('Creators live now (the same as `total`, kept for older clients)', 73),
    ...Pagination.shape,
  });

  const SearchCreatorSummary = named(
    'SearchCreatorSummary',
    z.omit(CreatorSummary, { is_hot: true, watching_now: true, watching_now_formatted: true }),
    'A creator of the search results (spec 2.2): the summary without is_hot and the viewer counts',
  );

  const SearchCreatorList = z.object({ creators: z.array(SearchCreatorSummary) });

  const SearchCreatorListMeta = z.object({
    query: described(z.string(), 'The search text, trimmed', 'jonas'),
    ...Pagination.shape,
    total_relation: totalRelation,
  });

  const CreatorCategory = named(
    'CreatorCategory',
    z.object({
      id: described(z.enum(CATEGORY_IDS), 'Category id', 'comedy'),
      label: described(z.string(), 'Display name', 'Comedy'),
      icon: described(z.string(), 'Icon name', 'mic'),
      creator_count: count('Creators in this category (0 when none)', 26),
    }),
    'A creator category with its creator count (spec 2.3)',
  );

  // Creator detail blocks (spec 2.4)

  const AudienceMetrics = named(
    'CreatorAudienceMetrics',
    z.object({
      subscribers: count('Subscribers', 2861407),
      subscribers_formatted: formatted('Subscribers', '2.8M'),
      views: count('Views of all their content', 306170549),
      views_formatted: formatted('Views', '306.1M'),
      followers: count('Accounts following them on this platform (follows are free; subscribers pay)', 1520),
      followers_formatted: formatted('Followers', '1.5K'),
      instagram_followers: count('Instagram followers', 2599518),
      instagram_followers_formatted: formatted('Instagram followers', '2.5M'),
      youtube_subscribers: count('YouTube subscribers', 1001274),
      youtube_subscribers_formatted: formatted('YouTube subscribers', '1M'),
      tiktok_followers: count('TikTok followers', 5906281),
      tiktok_followers_formatted: formatted('TikTok followers', '5.9M'),
    }),
    'Audience counts of a creator, each with its display form',
  );

  const CreatorUserBlock = named(
    'CreatorUserBlock',
    z.object({
      type: blockType('user'),
      id: creatorId,
      name: described(z.string(), 'Display name', 'Jonas Vargas'),
      initials: described(z.string(), 'Initials for an avatar placeholder', 'JV'),
      avatar_color: described(z.string(), 'Avatar placeholder colour, `#RRGGBB`', '#7986CB'),
      avatar_url: described(
        z.nullable(z.string()),
        'Avatar image URL; null when none was uploaded',
        'https://cdn.example.com/avatars/cr_0001.jpg',
      ),
      is_verified: described(z.boolean(), 'Verified creator', true),
      is_live: described(z.boolean(), 'Live on their channel now', true),
      description: described(
        z.string(),
        'About the creator',
        'Stand-up, sketches and unscripted nonsense, a few times a week. Hosted by Jonas Vargas.',
      ),
      tier: described(z.enum(TIER_IDS), 'Tier id', 'ambassador'),
      category: described(z.enum(CATEGORY_IDS), 'Category id', 'comedy'),
      audience_metrics: AudienceMetrics,
      watching_now: count('Viewers on the live stream now (0 when offline)', 15727),
      watching_now_formatted: formatted('Viewers now', '15.7K'),
      user_state: described(
        z.object({
          is_following: described(z.boolean(), 'The caller follows this creator', false),
          is_subscribed: described(
            z.boolean(),
            "The caller's subscription to this creator grants access now",
            false,
          ),
        }),
        "The caller's relationship with the creator (both false when called without a token)",
      ),
      channel_url: described(z.string(), "Path of the creator's page", '/creators/jonas_vargas'),
      joined_at: timestamp('When the creator joined', '2023-02-22T12:00:00.000Z'),
    }),
    "Creator header block: identity, audience and the caller's follow/subscription state",
  );

  const CreatorTopContentBlock = named(
    'CreatorTopContentBlock',
    z.object({
      type: blockType('top_content'),
      id: showId,
      title: described(z.string(), 'Show title', 'Midnight Laughs 2'),
      image_url: described(
        z.string(),
        'Poster image URL',
        'https://cdn.example.com/shows/sh_0015/poster.jpg',
      ),
      year: count('Year of first release', 2021),
      seasons: count('Number of seasons', 3),
      tags: described(z.array(z.string()), 'Tags', ['featured', 'sketch']),
      description: described(
        z.string(),
        'Show description',
        'Midnight Laughs 2: stand-up, sketches and unscripted nonsense, a few times a week. A Jonas Vargas original.',
      ),
      starring: described(z.string(), 'Who stars in it', 'Jonas Vargas'),
      subtitles: described(z.array(z.string()), 'Subtitle languages', ['English', 'Spanish']),
    }),
    "The creator's most viewed show (left out when the creator has no shows)",
  );

  const CreatorFreeEpisodesBlock = named(
    'CreatorFreeEpisodesBlock',
    z.object({
      type: blockType('free_episodes'),
      title: described(z.string(), 'Block heading', 'Watch Midnight Laughs 2 free'),
      description: described(
        z.string(),
        'Block text',
        'Free episodes from Jonas Vargas. No subscription needed.',
      ),
      series_id: described(z.string(), 'Show id of the series with free episodes', 'sh_0015'),
      seasons: described(
        z.array(
          z.object({
            id: described(z.string(), 'Season id, `<show id>_s<number>`', 'sh_0015_s1'),
            title: described(z.string(), 'Season title', 'Season 1'),
          }),
        ),
        'Seasons holding at least one free episode',
      ),
    }),
    "Free episodes of the creator's most viewed show that has any (left out when none is free)",
  );

  const CreatorSubscribeBannerBlock = named(
    'CreatorSubscribeBannerBlock',
    z.object({
      type: blockType('subscribe_banner'),
      plan: described(
        z.object({
          price: described(z.number(), 'Price per interval', 2.99),
          currency: described(z.string(), 'ISO 4217 currency code', 'USD'),
          interval: described(z.enum(['month', 'year']), 'Billing interval', 'month'),
        }),
        "The creator's subscription plan",
      ),
      user_subscription: described(
        z.object({
          is_subscribed: described(
            z.boolean(),
            "The caller's subscription grants access now (active, or cancelled but paid up)",
            false,
          ),
          subscribed_at: described(
            z.nullable(z.string()),
            'When the caller subscribed (ISO 8601, UTC); null without a subscription record',
            null,
          ),
          renewal_date: described(
            z.nullable(z.string()),
            'When the subscription renews or, if cancelled, ends (ISO 8601, UTC); null without a subscription record',
            null,
          ),
          status: described(
            z.nullable(z.enum(SUBSCRIPTION_STATUSES)),
            'Subscription status; null without a subscription record',
            null,
          ),
        }),
        "The caller's subscription to this creator (all null when called without a token)",
      ),
    }),
    "Subscription offer with the caller's current subscription",
  );

  const CreatorPremiumContentBlock = named(
    'CreatorPremiumContentBlock',
    z.object({
      type: blockType('premium_content'),
      premium_price: described(z.number(), 'Price of premium access', 19.99),
      billing_term: described(z.string(), 'Billing term of premium access', 'monthly'),
      currency: described(z.string(), 'ISO 4217 currency code', 'USD'),
    }),
    'Premium access price',
  );

  const CreatorOfferedContentBlock = named(
    'CreatorOfferedContentBlock',
    z.object({
      type: blockType('offered_content'),
      title: described(z.string(), 'Block heading', 'What you get with Jonas Vargas'),
      description: described(
        z.string(),
        'What a subscription includes',
        'Every premium episode, live streams with chat, and early access to new releases.',
      ),
    }),
    'What a subscription to the creator includes',
  );

  const CreatorOtherContentBlock = named(
    'CreatorOtherContentBlock',
    z.object({
      type: blockType('other_content'),
      title: described(z.string(), 'Block heading', 'More from Jonas Vargas'),
      items: described(
        z.array(
          z.object({
            id: described(z.string(), 'Show id', 'sh_0061'),
            title: described(z.string(), 'Show title', 'Sunday Laughs'),
            thumbnail_url: described(
              z.string(),
              'Poster image URL',
              'https://cdn.example.com/shows/sh_0061/poster.jpg',
            ),
            total_episodes: count('Episodes of the show', 10),
            year: count('Year of first release', 2023),
          }),
        ),
        "The creator's other shows, most viewed first",
      ),
    }),
    "The creator's shows after the top one (left out when there are none)",
  );

  const CreatorBlock = named(
    'CreatorBlock',
    z.discriminatedUnion('type', [
      CreatorUserBlock,
      CreatorTopContentBlock,
      CreatorFreeEpisodesBlock,
      CreatorSubscribeBannerBlock,
      CreatorPremiumContentBlock,
      CreatorOfferedContentBlock,
      CreatorOtherContentBlock,
    ]),
    'One block of a creator page (spec 2.4): render by `type`',
  );

  const CreatorDetail = described(
    z.array(CreatorBlock),
    'The creator page in render order: user, top_content, free_episodes, subscribe_banner, premium_content, offered_content, other_content (show blocks left out when empty)',
  );

  const CreatorChannelProgram = named(
    'CreatorChannelProgram',
    z.object({
      program_id: described(z.string(), 'Programme id', 'pg_0001_28946880'),
      title: described(z.string(), 'Programme title', 'Midnight Laughs 2: Episode 7'),
      start_time: timestamp('Start', '2025-01-14T00:00:00.000Z'),
      end_time: timestamp('End', '2025-01-14T03:00:00.000Z'),
      thumbnail_url: described(
        z.string(),
        'Programme thumbnail URL',
        'https://cdn.example.com/vod/ep_0015_s2e07/thumb.jpg',
      ),
      duration_minutes: count('Length in minutes', 180),
    }),
    'A programme on a creator channel, times in UTC',
  );

  const CreatorChannel = named(
    'CreatorChannel',
    z.object({
      channel_id: described(z.string(), 'Channel id', 'ch_0001'),
      channel_name: described(z.string(), 'Channel name', 'Jonas Vargas Live'),
      channel_number: count('Channel number in the guide', 100),
      is_live: described(z.boolean(), 'The creator is live on it now', true),
      current_program: described(
        z.nullable(CreatorChannelProgram),
        'The programme on air now; null when the schedule has none',
      ),
      next_program: described(
        z.nullable(CreatorChannelProgram),
        'The programme after it; null when the schedule has none',
      ),
    }),
    "A creator's channel with what is on now and next",
  );

  const TvCreatorDetail = named(
    'TvCreatorDetail',
    z.object({
      id: creatorId,
      is_live: described(z.boolean(), 'Live on their channel now', true),
      blocks: CreatorDetail,
      channels: described(z.array(CreatorChannel), "The creator's channels (one per creator)"),
    }),
    'The TV variant of a creator page: the detail blocks plus the channels and their current and next programmes',
  );
  return {
    Tier,
    CreatorSummary,
    CreatorList,
    CreatorListMeta,
    CreatorLiveStream,
    LiveCreatorSummary,
    LiveCreatorList,
    LiveCreatorListMeta,
    SearchCreatorSummary,
    SearchCreatorList,
    SearchCreatorListMeta,
    CreatorCategory,
    CreatorUserBlock,
    CreatorTopContentBlock,
    CreatorFreeEpisodesBlock,
    CreatorSubscribeBannerBlock,
    CreatorPremiumContentBlock,
    CreatorOfferedContentBlock,
    CreatorOtherContentBlock,
    CreatorBlock,
    CreatorDetail,
    CreatorChannelProgram,
    CreatorChannel,
    TvCreatorDetail,
  };
};
export const creatorResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type Tier = z.infer<Built['Tier']>;
export type CreatorSummary = z.infer<Built['CreatorSummary']>;
export type CreatorList = z.infer<Built['CreatorList']>;
export type CreatorListMeta = z.infer<Built['CreatorListMeta']>;
export type LiveCreatorSummary = z.infer<Built['LiveCreatorSummary']>;
export type LiveCreatorList = z.infer<Built['LiveCreatorList']>;
export type LiveCreatorListMeta = z.infer<Built['LiveCreatorListMeta']>;
export type SearchCreatorSummary = z.infer<Built['SearchCreatorSummary']>;
export type SearchCreatorList = z.infer<Built['SearchCreatorList']>;
export type SearchCreatorListMeta = z.infer<Built['SearchCreatorListMeta']>;
export type CreatorCategory = z.infer<Built['CreatorCategory']>;
export type CreatorBlock = z.infer<Built['CreatorBlock']>;
export type CreatorDetail = z.infer<Built['CreatorDetail']>;
export type CreatorChannelProgram = z.infer<Built['CreatorChannelProgram']>;
export type TvCreatorDetail = z.infer<Built['TvCreatorDetail']>;
