import type { CreatorRecord } from '../catalog/model.ts';
import { formatCount } from '../format.ts';
import type { CreatorSummary, LiveCreatorSummary, SearchCreatorSummary } from './schemas.ts';

/**
 * Creator response shapes (spec 2.2). Pure: records in, spec objects out.
 */
export const creatorSummary = (c: CreatorRecord): CreatorSummary =>
  Object.assign(searchCreatorSummary(c, c.live !== null), {
    is_hot: c.is_hot,
    watching_now: c.live ? c.watching_now : 0,
    watching_now_formatted: formatCount(c.live ? c.watching_now : 0),
  });

/** The live list variant: adds `stream`, omits category, subscribers and is_hot. */
export const liveCreatorSummary = (c: CreatorRecord): LiveCreatorSummary => {
  const {
    category: _c,
    subscribers: _s,
    subscribers_formatted: _sf,
    is_hot: _h,
    ...rest
  } = creatorSummary(c);
  return {
    ...rest,
    stream: c.live
      ? {
          stream_id: c.live.stream_id,
          title: c.live.title,
          started_at: c.live.started_at,
          thumbnail_url: c.live.thumbnail_url,
        }
      : null,
  };
};

/** What a search result needs of a creator: what its search index items carry (creator-search.ts). */
export type CreatorSearchFields = Pick<
  CreatorRecord,
  | 'id'
  | 'name'
  | 'initials'
  | 'avatar_color'
  | 'avatar_url'
  | 'tier'
  | 'category'
  | 'subscribers'
  | 'is_verified'
  | 'slug'
> & { is_live: boolean };

/** The search list variant, and the fields every summary shares: without is_hot, watching_now and watching_now_formatted. */
export const searchCreatorSummary = (
  c: Omit<CreatorSearchFields, 'is_live'>,
  isLive: boolean,
): SearchCreatorSummary => ({
  id: c.id,
  name: c.name,
  initials: c.initials,
  avatar_color: c.avatar_color,
  avatar_url: c.avatar_url,
  tier: c.tier,
  category: c.category,
  subscribers: c.subscribers,
  subscribers_formatted: formatCount(c.subscribers),
  is_live: isLive,
  is_verified: c.is_verified,
  channel_url: `/creators/${c.slug}`,
});
