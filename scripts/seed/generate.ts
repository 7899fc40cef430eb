import {
  CATEGORY_IDS,
  type Catalog,
  type CategoryId,
  type CreatorRecord,
  type DemoAccount,
  type EpisodeRecord,
  type ProgramRecord,
  RATING_IDS,
  type ShowRecord,
  TIER_IDS,
  type TierId,
} from '../../shared/catalog/model.ts';
import { cdnUrl } from '../../shared/catalog/media-urls.ts';
import { createRandom, type Random } from './random.ts';
import {
  AVATAR_COLORS,
  BRANDS,
  DESCRIPTIONS,
  FIRST_NAMES,
  GENRE_TAGS,
  LANGUAGES,
  LAST_NAMES,
  SHOW_WORDS,
  STREAM_TITLES,
} from './words.ts';

/**
 * The deterministic demo catalogue: same seed, `now` and scale → the same data, byte for byte.
 * Scale 1: 240 creators, 180 shows; `scale` multiplies both. See docs/demo-data.md.
 */
export interface GenerateOptions {
  seed?: number;
  now: Date;
  scale?: number;
  /**
   * `{cdn_url}`, the media CDN every media URL of the catalogue is under (avatars, posters,
   * streams, stills); default the platform's `CDN_URL` (shared/catalog/media-urls.ts `cdnUrl`), as
   * the studio builds the URLs of what creators add.
   */
  cdn?: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The creator whose live channel needs a subscription; the demo viewer is subscribed to it. */
export const GATED_LIVE_CREATOR_ID = 'cr_0001';
/** Demo account credentials (documented in docs/demo-data.md). */
export const DEMO_VIEWER = {
  account_id: 'acc_demo_viewer',
  email: 'viewer@demo.stream',
  password: 'demo-password-1',
  password_hash: 'scrypt$131072$8$1$0mePtKyKMw4e8a19zr_Hng$4q1AImpEYgtxO9Y8mgJvG64AUCQ23IsNS2_3b5yFE68',
};

const TIER_WEIGHTS: Array<[TierId, number]> = [
  ['ambassador', 0.06],
  ['platinum', 0.14],
  ['gold', 0.3],
  ['silver', 0.5],
];
const TIER_REACH: Record<TierId, [number, number]> = {
  ambassador: [800_000, 9_000_000],
  platinum: [150_000, 2_000_000],
  gold: [20_000, 400_000],
  silver: [300, 60_000],
};

const weighted = <T>(random: Random, options: ReadonlyArray<[T, number]>): T => {
  let roll = random.next();
  for (const [value, weight] of options) {
    roll -= weight;
    if (roll <= 0) return value;
  }
  return options[options.length - 1]![0];
};

const slugify = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

const initialsOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/\s+/)
    .map((word) => word.replace(/[^A-Za-z]/g, '')[0] ?? '')
    .join('')
    .toUpperCase()
    .slice(0, 2);

const makeCreators = (random: Random, count: number, now: Date, cdn: string): CreatorRecord[] => {
  const slugs = new Set<string>();
  const creators: CreatorRecord[] = [];
  for (let i = 0; i < count; i++) {
    const id = `cr_${pad(i + 1, 4)}`;
    const category =
      i < CATEGORY_IDS.length * 2 ? CATEGORY_IDS[i % CATEGORY_IDS.length]! : random.pick(CATEGORY_IDS);
    const tier = i < TIER_IDS.length ? TIER_IDS[i]! : weighted(random, TIER_WEIGHTS);
    const brand = random.chance(0.2);
    const name = brand
      ? random.pick(BRANDS[category])
      : `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
    let slug = slugify(name);
    for (let n = 2; slugs.has(slug); n++) slug = `${slugify(name)}_${n}`;
    slugs.add(slug);
    const [low, high] = TIER_REACH[tier];
    const subscribers = random.longTail(low, high);
    const live = i === 0 || random.chance(1 / 3);
    const watching = live ? Math.max(3, Math.round(subscribers * (0.002 + random.next() * 0.02))) : 0;
    const startedMinutesAgo = random.int(5, 180);
    creators.push({
      id,
      slug,
      name,
      initials: initialsOf(name),
      avatar_color: random.pick(AVATAR_COLORS),
      avatar_url: random.chance(0.9) ? `${cdn}/avatars/${id}.jpg` : null,
      description: `${DESCRIPTIONS[category]} Hosted by ${name}.`,
      tier,
      category,
      subscribers,
      views: subscribers * random.int(20, 120),
      instagram_followers: Math.round(subscribers * (0.2 + random.next() * 1.5)),
      youtube_subscribers: Math.round(subscribers * (0.1 + random.next())),
      tiktok_followers: Math.round(subscribers * (0.3 + random.next() * 2)),
      is_verified: tier === 'ambassador' || tier === 'platinum' || random.chance(0.25),
      is_hot: random.chance(0.1),
      is_featured: i < 3 || random.chance(0.15),
      joined_at: new Date(now.getTime() - random.int(30, 6 * 365) * DAY).toISOString(),
      subscribers_7d: Math.round(subscribers * random.next() * 0.05),
      channel: {
        channel_id: `ch_${pad(i + 1, 4)}`,
        channel_name: `${name} Live`,
        channel_number: 100 + i,
        requires_subscription: i === 0 || random.chance(0.15),
      },
      live: live
        ? {
            stream_id: `st_${id}_${random.int(1, 999)}`,
            title: random.pick(STREAM_TITLES[category]),
            started_at: new Date(now.getTime() - startedMinutesAgo * MINUTE).toISOString(),
            thumbnail_url: `${cdn}/live/${id}/thumb.jpg`,
          }
        : null,
      watching_now: watching,
      peak_all_time: Math.max(watching, Math.round(subscribers * (0.01 + random.next() * 0.05))),
      plan: { price: random.pick([2.99, 4.99, 9.99]), currency: 'USD', interval: 'month' },
      premium_price: random.pick([14.99, 19.99, 29.99]),
      billing_term: 'monthly',
    });
  }
  return creators;
};

const makeShows = (
  random: Random,
  count: number,
  creators: readonly CreatorRecord[],
  now: Date,
  cdn: string,
) => {
  const shows: ShowRecord[] = [];
  const episodes: EpisodeRecord[] = [];
  const titles = new Set<string>();
  for (let i = 0; i < count; i++) {
    const id = `sh_${pad(i + 1, 4)}`;
    // Popular creators are likelier to have shows; the first 8 creators always have one.
    const creator = i < 8 ? creators[i]! : creators[Math.floor(random.next() ** 2 * creators.length)]!;
    const words = SHOW_WORDS[creator.category];
    let title = `${random.pick(words.a)} ${random.pick(words.b)}`;
    for (let n = 2; titles.has(title); n++) title = `${random.pick(words.a)} ${random.pick(words.b)} ${n}`;
    titles.add(title);
    const releasedDaysAgo = i % 9 === 0 ? random.int(1, 29) : random.int(31, 5 * 365);
    const released = new Date(now.getTime() - releasedDaysAgo * DAY);
    const isNew = releasedDaysAgo < 30;
    const isFeatured = i % 7 === 0 || random.chance(0.1);
    const totalViews = random.longTail(2_000, 40_000_000);
    const seasonCount = random.int(1, 5);
    const seasons = Array.from({ length: seasonCount }, (_, s) => ({
      number: s + 1,
      title: `Season ${s + 1}`,
    }));
    const genre = random.pick(GENRE_TAGS[creator.category]);
    shows.push({
      id,
      slug: slugify(title),
      title,
      description: `${title}: ${DESCRIPTIONS[creator.category].toLowerCase()} A ${creator.name} original.`,
      creator_id: creator.id,
      category: creator.category,
      rating: random.pick(RATING_IDS),
      tags: [...(isNew ? ['new'] : []), ...(isFeatured ? ['featured'] : []), genre],
      is_new: isNew,
      is_featured: isFeatured,
      thumbnail_url: `${cdn}/shows/${id}/poster.jpg`,
      thumbnail_color: random.pick(AVATAR_COLORS),
      released_at: released.toISOString(),
      year: released.getUTCFullYear(),
      starring: creator.name,
      subtitles: ['English', ...LANGUAGES.slice(1).filter(() => random.chance(0.3))],
      total_views: totalViews,
      views_7d: Math.round(totalViews * random.next() * (isNew ? 0.4 : 0.05)),
      seasons,
    });
    let aired = released.getTime();
    for (const season of seasons) {
      const count = random.int(4, 12);
      for (let e = 1; e <= count; e++) {
        const episodeId = `ep_${id.slice(3)}_s${season.number}e${pad(e, 2)}`;
        const access =
          season.number === 1
            ? e <= 3 || random.chance(0.3)
              ? 'free'
              : 'premium'
            : random.chance(0.08)
              ? 'ppv'
              : 'premium';
        aired = Math.min(now.getTime() - DAY, aired + random.int(3, 10) * DAY);
        episodes.push({
          id: episodeId,
          show_id: id,
          creator_id: creator.id,
          season: season.number,
          episode_number: e,
          title: `${title}: Episode ${e}`,
          description: `Season ${season.number}, episode ${e} of ${title}.`,
          duration_seconds: random.int(8, 60) * 60 + random.int(0, 59),
          views: Math.max(
            10,
            Math.round((totalViews / (seasonCount * count)) * (1.5 - e / (count + 1)) * (1 / season.number)),
          ),
          access,
          price: access === 'ppv' ? random.pick([1.99, 3.99, 4.99]) : null,
          currency: access === 'ppv' ? 'USD' : null,
          stream_url: `${cdn}/vod/${episodeId}/master.m3u8`,
          air_date: new Date(aired).toISOString(),
          thumbnail_url: `${cdn}/vod/${episodeId}/thumb.jpg`,
        });
      }
    }
  }
  return { shows, episodes };
};

const GENERIC_PROGRAMS: Record<CategoryId, readonly string[]> = {
  comedy: ['Open Mic Replay', 'Sketch Hour', 'Roast Night', 'Comedy Shorts'],
  music: ['Studio Session', 'Vinyl Hour', 'Acoustic Replay', 'Beat Lab'],
  lifestyle: ['Kitchen Replay', 'Home Reset', 'Weekend Vlog', 'Q&A Hour'],
  sports: ['Training Replay', 'Highlights Hour', 'Match Analysis', 'Morning Workout'],
  film_tv: ['Review Roundup', 'Director Spotlight', 'Classic Rewatch', 'Trailer Talk'],
  art_design: ['Studio Timelapse', 'Critique Hour', 'Sketch Replay', 'Process Stream'],
  gaming: ['Speedrun Replay', 'Co-op Night', "Let's Play", 'Patch Notes Live'],
  education: ['Lecture Replay', 'Lab Hour', 'Explainer Marathon', 'Office Hours'],
};
const DURATIONS_MIN = [60, 120, 180, 180, 240, 300];

/** Contiguous half-hour-aligned programs for every channel over [day before `now`, 8 days after). */
const makePrograms = (
  random: Random,
  creators: readonly CreatorRecord[],
  shows: readonly ShowRecord[],
  episodes: readonly EpisodeRecord[],
  now: Date,
  cdn: string,
): ProgramRecord[] => {
  const dayStart = Math.floor(now.getTime() / DAY) * DAY;
  const from = dayStart - DAY;
  const to = dayStart + 8 * DAY;
  const showsByCreator = new Map<string, ShowRecord[]>();
  for (const show of shows)
    showsByCreator.set(show.creator_id, [...(showsByCreator.get(show.creator_id) ?? []), show]);
  const episodesByShow = new Map<string, EpisodeRecord[]>();
  for (const e of episodes) episodesByShow.set(e.show_id, [...(episodesByShow.get(e.show_id) ?? []), e]);
  const programs: ProgramRecord[] = [];
  for (const creator of creators) {
    const own = showsByCreator.get(creator.id) ?? [];
    for (let start = from; start < to; ) {
      const minutes = Math.min(random.pick(DURATIONS_MIN), (to - start) / MINUTE);
      const end = start + minutes * MINUTE;
      const program_id = `pg_${creator.id.slice(3)}_${Math.floor(start / MINUTE)}`;
      const show = own.length > 0 && random.chance(0.7) ? random.pick(own) : undefined;
      const episode = show ? random.pick(episodesByShow.get(show.id) ?? []) : undefined;
      programs.push({
        program_id,
        creator_id: creator.id,
        channel_id: creator.channel.channel_id,
        title: episode?.title ?? show?.title ?? random.pick(GENERIC_PROGRAMS[creator.category]),
        description:
          episode?.description ?? show?.description ?? `${creator.name} on ${creator.channel.channel_name}.`,
        thumbnail_url: episode?.thumbnail_url ?? show?.thumbnail_url ?? `${cdn}/epg/${program_id}.jpg`,
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        content_type: episode ? 'episode' : 'show',
        content_id: episode?.id ?? show?.id ?? `pg_show_${creator.id.slice(3)}`,
        rating: show?.rating ?? 'TV-PG',
      });
      start = end;
    }
  }
  return programs;
};

const makeAccounts = (creators: readonly CreatorRecord[]): DemoAccount[] => {
  const following = creators.slice(0, 5).map((c) => c.id);
  return [
    {
      ...DEMO_VIEWER,
      creator_name: 'Demo Viewer',
      handle: 'demo_viewer',
      subscriptions: [GATED_LIVE_CREATOR_ID],
      following,
    },
    {
      account_id: 'acc_demo_viewer2',
      email: 'viewer2@demo.stream',
      password: 'demo-password-2',
      password_hash: 'scrypt$131072$8$1$1Y2SQphzBLNUIWJMBjcgYw$jkJSt-bYTmExZPJIcyRJH1U226Ikq5f_uYPYTYXpbZI',
      creator_name: 'Second Viewer',
      handle: 'second_viewer',
      subscriptions: [],
      following: [],
    },
    {
      account_id: 'acc_demo_creator',
      email: 'creator@demo.stream',
      password: 'demo-password-3',
      password_hash: 'scrypt$131072$8$1$T8-8M67HP3UxI2k38u5tZw$XMqDjMjPstOvvpJUx3JkfXAtg2UzhwLb9-pEGzP-B1o',
      creator_name: 'Demo Creator',
      handle: 'demo_creator',
      category: 'comedy',
      subscriptions: [],
      following: following.slice(0, 2),
    },
  ];
};

/** Generates the whole demo catalogue. Deterministic for its options: no clock, no Math.random. */
export const generateCatalog = ({ seed = 42, now, scale = 1, cdn = cdnUrl() }: GenerateOptions): Catalog => {
  const random = createRandom(seed);
  const creators = makeCreators(random, Math.round(240 * scale), now, cdn);
  const { shows, episodes } = makeShows(random, Math.round(180 * scale), creators, now, cdn);
  const programs = makePrograms(random, creators, shows, episodes, now, cdn);
  return { creators, shows, episodes, programs, accounts: makeAccounts(creators) };
};
