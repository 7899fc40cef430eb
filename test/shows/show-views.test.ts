import { describe, expect, it } from 'vitest';
import type { CreatorRecord, EpisodeRecord } from '../../shared/catalog/model.ts';
import { anonymous } from '../../shared/shows/entitlement.ts';
import { viewerFor } from '../support/entitlements.ts';
import { resolveSection } from '../../shared/shows/shows.ts';
import { accessBadges, gatingContext, tvEpisodeView } from '../../shared/shows/show-views.ts';

const play = (url: string) => url;

const episode = (access: EpisodeRecord['access']): EpisodeRecord => ({
  id: `ep_${access}`,
  show_id: 'sh_1',
  creator_id: 'cr_1',
  season: 1,
  episode_number: 2,
  title: 'T',
  description: 'D',
  duration_seconds: 125,
  views: 1500,
  access,
  price: access === 'ppv' ? 3.5 : null,
  currency: access === 'ppv' ? 'EUR' : null,
  stream_url: 'https://cdn.example.com/v.m3u8',
  air_date: '2026-01-01T00:00:00.000Z',
  thumbnail_url: 'https://img.example.com/t.jpg',
});
const creator = { id: 'cr_1', plan: { price: 4.99, currency: 'USD', interval: 'month' } } as CreatorRecord;

describe('gating_context', () => {
  it('leaves free episodes open to everyone', () => {
    const view = tvEpisodeView(episode('free'), creator, anonymous(play));
    expect(view.is_locked).toBe(false);
    expect(view.stream_url).toBe('https://cdn.example.com/v.m3u8');
    expect(view.gating_context).toMatchObject({ access: 'free', required_action: null, price: null });
  });

  it('locks premium episodes until the viewer subscribes, quoting the creator plan', () => {
    const stranger = tvEpisodeView(episode('premium'), creator, anonymous(play));
    expect(stranger.is_locked).toBe(true);
    expect(stranger.stream_url).toBeNull();
    expect(stranger.gating_context).toMatchObject({
      access: 'subscription',
      required_action: 'subscribe',
      price: 4.99,
      currency: 'USD',
      billing_interval: 'month',
    });
    const subscriber = tvEpisodeView(episode('premium'), creator, viewerFor('cr_1', true, play));
    expect(subscriber.is_locked).toBe(false);
    expect(subscriber.stream_url).toBe('https://cdn.example.com/v.m3u8');
    expect(subscriber.gating_context).toMatchObject({ is_locked: false, required_action: null });
  });

  it('prices pay-per-view episodes and keeps them locked even for subscribers', () => {
    expect(gatingContext(episode('ppv'), creator, viewerFor('cr_1', true, play))).toMatchObject({
      access: 'ppv',
      is_locked: true,
      required_action: 'purchase',
      price: 3.5,
      currency: 'EUR',
    });
  });

  it('lists access badges in a fixed order', () => {
    expect(accessBadges([episode('ppv'), episode('free')])).toEqual(['free', 'ppv']);
    expect(accessBadges([])).toEqual([]);
  });
});

describe('resolveSection', () => {
  it('turns the section into the is_new / is_featured filter and spots contradictions', () => {
    expect(resolveSection('all', undefined, undefined)).toEqual({ isNew: null, isFeatured: null });
    expect(resolveSection('new_releases', undefined, false)).toEqual({ isNew: true, isFeatured: false });
    expect(resolveSection('featured', true, undefined)).toEqual({ isNew: true, isFeatured: true });
    expect(resolveSection('new_releases', false, undefined)).toBeNull();
    expect(resolveSection('featured', undefined, false)).toBeNull();
  });
});
