import { describe, expect, it } from 'vitest';
import type { CreatorRecord, EpisodeRecord, ShowRecord } from '../../shared/catalog/model.ts';
import { heroItem } from '../../shared/home/home-views.ts';
import {
  anonymous,
  entitledViewer,
  episodePlayback,
  isLocked,
  type Viewer,
} from '../../shared/shows/entitlement.ts';
import { viewerFor } from '../support/entitlements.ts';
import {
  episodeView,
  mostViewedEpisodeItem,
  showDetail,
  tvEpisodeView,
} from '../../shared/shows/show-views.ts';

/** Issue 14 item 11 (paywall bypass): one rule, and every view that carries an episode URL obeys it. */
const URL = 'https://cdn.example.com/vod/ep_x/master.m3u8';
/** The viewer's media signer: an unlocked episode's URL is the one it gives. */
const play = (url: string) => `${url}?signed-for-viewer`;
const episode = (access: EpisodeRecord['access'], creator_id = 'cr_1'): EpisodeRecord => ({
  id: `ep_${access}`,
  show_id: 'sh_1',
  creator_id,
  season: 1,
  episode_number: 1,
  title: 'T',
  description: 'D',
  duration_seconds: 600,
  views: 10,
  access,
  price: access === 'ppv' ? 1.99 : null,
  currency: access === 'ppv' ? 'USD' : null,
  stream_url: URL,
  air_date: '2026-01-01T00:00:00.000Z',
  thumbnail_url: 'https://cdn.example.com/vod/ep_x/thumb.jpg',
});
const show = { id: 'sh_1', seasons: [{ number: 1, title: 'S1' }], tags: [] } as unknown as ShowRecord;
const creator = { id: 'cr_1', plan: { price: 4.99, currency: 'USD', interval: 'month' } } as CreatorRecord;

const VIEWERS: Array<[string, Viewer]> = [
  ['anonymous', anonymous(play)],
  ['signed in, not subscribed', viewerFor('cr_1', false, play)],
  ['subscribed to another creator', viewerFor('cr_2', true, play)],
  ['subscribed to the creator', viewerFor('cr_1', true, play)],
  ['bought the ppv item', viewerFor('cr_1', false, play, ['ep_ppv'])],
  ['bought another item', viewerFor('cr_1', true, play, ['ep_other'])],
  // A creator's account id is its creator id: their own episodes play, however they are sold.
  ['the creator themself', entitledViewer([], new Date(), play, 'cr_1')],
  ['another creator', entitledViewer([], new Date(), play, 'cr_2')],
];
/** The rule, spelled out: free plays for all, premium for the creator's subscribers, ppv for its buyers. */
const EXPECTED_LOCKED: Record<string, Record<EpisodeRecord['access'], boolean>> = {
  anonymous: { free: false, premium: true, ppv: true },
  'signed in, not subscribed': { free: false, premium: true, ppv: true },
  'subscribed to another creator': { free: false, premium: true, ppv: true },
  'subscribed to the creator': { free: false, premium: false, ppv: true },
  'bought the ppv item': { free: false, premium: true, ppv: false },
  'bought another item': { free: false, premium: false, ppv: true },
  'the creator themself': { free: false, premium: false, ppv: false },
  'another creator': { free: false, premium: true, ppv: true },
};

/** Every view that emits an episode's `stream_url`, reduced to its playback fields. */
const VIEWS: Array<
  [string, (e: EpisodeRecord, v: Viewer) => { is_locked: boolean; stream_url: string | null }]
> = [
  ['show detail episode', (e, v) => episodeView(e, v)],
  ['show detail', (e, v) => showDetail(show, creator, [e], v).episodes[0]!],
  ['tv show / creator series episode', (e, v) => tvEpisodeView(e, creator, v)],
  ['most viewed item', (e, v) => mostViewedEpisodeItem(e, v)],
  ['home hero slide', (e, v) => heroItem(show, e, v)],
  ['the rule itself', (e, v) => episodePlayback(e, v)],
];

describe('entitlement', () => {
  for (const [who, viewer] of VIEWERS) {
    it.each(['free', 'premium', 'ppv'] as const)(`${who}: %s`, (access) => {
      const locked = EXPECTED_LOCKED[who]![access];
      expect(isLocked(episode(access), viewer)).toBe(locked);
      for (const [, view] of VIEWS) {
        expect(view(episode(access), viewer)).toMatchObject({
          is_locked: locked,
          stream_url: locked ? null : play(URL),
        });
      }
    });
  }

  it('an unknown access level is locked (fails closed)', () => {
    const odd = { ...episode('free'), access: 'rental' as EpisodeRecord['access'] };
    expect(episodePlayback(odd, viewerFor('cr_1', true, play))).toEqual({
      is_locked: true,
      stream_url: null,
    });
  });
});
