import type { CategoryId, RatingId, TierId } from './model.ts';

/** Category labels and icons (spec 2.3), shared by creator and show categories. */
export const CATEGORIES: ReadonlyArray<{
  id: CategoryId;
  label: string;
  icon: string;
  emoji: string;
  bg_color: string;
}> = [
  { id: 'comedy', label: 'Comedy', icon: 'mic', emoji: '😂', bg_color: '#FFB020' },
  { id: 'music', label: 'Music', icon: 'music', emoji: '🎵', bg_color: '#8B5CF6' },
  { id: 'lifestyle', label: 'Lifestyle', icon: 'heart', emoji: '🌿', bg_color: '#10B981' },
  { id: 'sports', label: 'Sports', icon: 'trophy', emoji: '🏆', bg_color: '#EF4444' },
  { id: 'film_tv', label: 'Film & TV', icon: 'film', emoji: '🎬', bg_color: '#3B82F6' },
  { id: 'art_design', label: 'Art & Design', icon: 'palette', emoji: '🎨', bg_color: '#EC4899' },
  { id: 'gaming', label: 'Gaming', icon: 'gamepad', emoji: '🎮', bg_color: '#6366F1' },
  { id: 'education', label: 'Education', icon: 'book', emoji: '📚', bg_color: '#F59E0B' },
];

/** Creator tiers (spec 2.3), highest first. */
export const TIERS: ReadonlyArray<{ id: TierId; label: string }> = [
  { id: 'ambassador', label: 'Ambassador' },
  { id: 'platinum', label: 'Platinum' },
  { id: 'gold', label: 'Gold' },
  { id: 'silver', label: 'Silver' },
];

/** TV parental guidelines ratings (spec 2.3). */
export const RATINGS: ReadonlyArray<{ id: RatingId; label: string; description: string }> = [
  { id: 'TV-G', label: 'General Audience', description: 'Suitable for all ages.' },
  {
    id: 'TV-PG',
    label: 'Parental Guidance',
    description: 'May contain material parents find unsuitable for younger children.',
  },
  {
    id: 'TV-14',
    label: 'Parents Strongly Cautioned',
    description: 'May be unsuitable for children under 14.',
  },
  {
    id: 'TV-MA',
    label: 'Mature Audience',
    description: 'Intended for adults; may be unsuitable for children under 17.',
  },
];
