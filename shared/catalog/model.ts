/**
 * Stored records of the catalogue: what the seed generator produces and the repositories store.
 * Response shapes (spec 2.2-2.5) are built from these by the domain modules; these are internal.
 */
export const CATEGORY_IDS = [
  'comedy',
  'music',
  'lifestyle',
  'sports',
  'film_tv',
  'art_design',
  'gaming',
  'education',
] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

/** On the creator item from Recording Start: the recording being written of stream `stream_id`. */
export interface LiveRecording {
  stream_id: string;
  bucket: string;
  prefix: string;
  /** `<prefix>/<media.hls.path>/<media.hls.playlist>` of recording-started.json. */
  playlist_key: string;
  /** The Recording Start's time (epoch ms): a later recording's start replaces this one. */
  started_ms: number;
}

/** What provisioning stores on a creator item whose channel is on IVS. */
export interface IvsChannel {
  channel_arn: string;
  playback_url: string;
  ingest_endpoint: string;
  /**
   * The channel's IVS Chat room (docs/chat.md): made with the channel; channels made before chat
   * get theirs from `npm run operator -- chat-room`; removed while the creator is suspended.
   */
  chat_room_arn?: string;
}

export const TIER_IDS = ['ambassador', 'platinum', 'gold', 'silver'] as const;
export type TierId = (typeof TIER_IDS)[number];

export const RATING_IDS = ['TV-G', 'TV-PG', 'TV-14', 'TV-MA'] as const;
export type RatingId = (typeof RATING_IDS)[number];

export const DEVICE_TYPES = ['web', 'ios', 'android', 'roku', 'firetv', 'appletv'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const QUALITY_VALUES = ['auto', '1080p', '720p', '480p', '360p'] as const;
export type Quality = (typeof QUALITY_VALUES)[number];

export interface CreatorRecord {
  /** Stable id, e.g. `cr_0001`. */
  id: string;
  /** URL slug and public handle, lower-case, e.g. `maya_lopez`. */
  slug: string;
  name: string;
  initials: string;
  /** `#RRGGBB`. */
  avatar_color: string;
  avatar_url: string | null;
  description: string;
  tier: TierId;
  category: CategoryId;
  subscribers: number;
  views: number;
  /** Accounts following the creator here (moved by the projector; absent = 0). */
  followers?: number;
  instagram_followers: number;
  youtube_subscribers: number;
  tiktok_followers: number;
  is_verified: boolean;
  is_hot: boolean;
  is_featured: boolean;
  /** ISO timestamp. */
  joined_at: string;
  /** Subscribers gained in the last 7 days: the `trending` sort key. */
  subscribers_7d: number;
  channel: {
    channel_id: string;
    channel_name: string;
    channel_number: number;
    /** Watching live needs an active subscription to this creator. */
    requires_subscription: boolean;
  };
  /** The current live stream, or null when the channel is offline. */
  live: null | {
    stream_id: string;
    title: string;
    /** ISO timestamp. */
    started_at: string;
    thumbnail_url: string;
  };
  /** Snapshot of current viewers for catalogue lists (live counters are authoritative). */
  watching_now: number;
  peak_all_time: number;
  plan: { price: number; currency: string; interval: 'month' | 'year' };
  premium_price: number;
  billing_term: string;
  /** Set by an operator (scripts/operator.ts): the creator is hidden everywhere while set. */
  suspended_at?: string;
  /** The creator's channel on Amazon IVS, once provisioned (`POST /studio/channel`). */
  ivs?: IvsChannel;
  /** The recording IVS is writing of the live stream (from Recording Start): the DVR plays it. */
  live_recording?: LiveRecording | null;
}

export interface SeasonRecord {
  number: number;
  title: string;
}

export interface ShowRecord {
  /** Stable id, e.g. `sh_0001`. */
  id: string;
  slug: string;
  title: string;
  description: string;
  creator_id: string;
  category: CategoryId;
  rating: RatingId;
  tags: string[];
  is_new: boolean;
  is_featured: boolean;
  thumbnail_url: string;
  thumbnail_color: string;
  /** ISO timestamp of the first release: the `newest` sort key. */
  released_at: string;
  year: number;
  starring: string;
  subtitles: string[];
  total_views: number;
  /** Views in the last 7 days: the `trending` sort key. */
  views_7d: number;
  seasons: SeasonRecord[];
  /** Set while an operator has the show's creator suspended: the show is hidden everywhere. */
  creator_suspended?: boolean;
}

export interface EpisodeRecord {
  /** Stable id, e.g. `ep_0001_s1e01`. */
  id: string;
  show_id: string;
  creator_id: string;
  season: number;
  episode_number: number;
  title: string;
  description: string;
  duration_seconds: number;
  views: number;
  /** `free` episodes play for anyone; `premium` needs a subscription; `ppv` a purchase. */
  access: 'free' | 'premium' | 'ppv';
  /** Pay-per-view price when access is `ppv`. */
  price: number | null;
  currency: string | null;
  stream_url: string;
  /** ISO timestamp. */
  air_date: string;
  thumbnail_url: string;
  /** Set while an operator has the episode's creator suspended: the episode is hidden everywhere. */
  creator_suspended?: boolean;
}

export interface ProgramRecord {
  program_id: string;
  /** The creator id: every creator has exactly one channel. */
  creator_id: string;
  channel_id: string;
  title: string;
  description: string;
  thumbnail_url: string;
  /** UTC ISO instants; programs of one channel are contiguous and never overlap. */
  start: string;
  end: string;
  /**
   * What is broadcast. A program with no show or episode of the catalogue stores a program id here
   * (`content_type: 'show'`): its own id (the studio) or `pg_show_<creator>` (the demo catalogue's
   * generic programs); every view answers it as null (`programContent`).
   */
  content_type: 'show' | 'episode';
  content_id: string;
  rating: RatingId;
}

/**
 * What a program broadcasts as the API answers it: a show or episode of the catalogue (`sh_…`,
 * `ep_…`), or nulls for a program with none (its stored content id is a program id, `pg_…`).
 */
export const programContent = (
  p: Pick<ProgramRecord, 'content_type' | 'content_id'>,
): { content_type: 'show' | 'episode' | null; content_id: string | null } =>
  p.content_id.startsWith('pg_')
    ? { content_type: null, content_id: null }
    : { content_type: p.content_type, content_id: p.content_id };

/** A demo account (viewer or creator) with its documented password. */
export interface DemoAccount {
  account_id: string;
  email: string;
  password: string;
  /**
   * scrypt hash of `password` (shared/identity/password.ts format), precomputed: the password is
   * public, and hashing three of them at every `npm start` cost ~1.5 s of CPU while DynamoDB Local
   * boots. test/seed checks that each one verifies.
   */
  password_hash: string;
  creator_name: string;
  handle: string;
  /** Creator ids this account holds an active subscription to. */
  subscriptions: string[];
  /** Creator ids this account follows. */
  following: string[];
  /** The onboarding category: an account with one is a public creator (creator id = account id). */
  category?: CategoryId;
}

export interface Catalog {
  creators: CreatorRecord[];
  shows: ShowRecord[];
  episodes: EpisodeRecord[];
  programs: ProgramRecord[];
  accounts: DemoAccount[];
}

// ---- Value sets the API schemas and the repositories share (no storage code here) --------

export const CREATOR_SORTS = ['most_popular', 'newest', 'trending'] as const;
export type CreatorSort = (typeof CREATOR_SORTS)[number];

export const SHOW_SORTS = ['most_popular', 'newest', 'trending'] as const;
export type ShowSort = (typeof SHOW_SORTS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'cancelled', 'past_due', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const REPORT_TARGET_TYPES = ['video', 'show'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_CATEGORIES = [
  'spam',
  'harassment',
  'hate_speech',
  'violence',
  'sexual_content',
  'child_safety',
  'misinformation',
  'copyright',
  'other',
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];
