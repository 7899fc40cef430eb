import { backoff } from '../backoff.ts';
import { randomBytes } from 'node:crypto';
import type { CreatorRecord, EpisodeRecord, SeasonRecord } from '../catalog/model.ts';
import { cdnUrl } from '../catalog/media-urls.ts';
import { type TransactOperation, transact } from '../db/transaction.ts';
import { ConflictError, NotFoundError } from '../errors/errors.ts';
import {
  deleteEpisodeOperation,
  EMPTY_TALLY,
  getStoredEpisode,
  getStoredShow,
  putEpisodeOperation,
  putNewShow,
  type StoredEpisode,
  type NewShow,
  type StoredShow,
  seasonHasOtherEpisodes,
  showClockOperation,
  showDeletion,
  updateEpisodeOperation,
  updateShowFields,
} from '../shows/show-repository.ts';
import type {
  CreateEpisodeBody,
  CreateShowBody,
  StudioEpisode,
  StudioShow,
  UpdateEpisodeBody,
  UpdateShowBody,
} from './schemas.ts';

/**
 * The studio's writes of shows and episodes: SOURCE items only (the show profile and its episode
 * items, shared/shows/show-repository.ts); lists, search entries and counts are the projector's.
 *
 * Every item carries `version`, which grows on every change. Conditions make concurrent and
 * repeated requests safe: creates are `attribute_not_exists`, updates and deletes require the
 * item and the caller's `creator_id`. A show's `seasons` (the seasons that have episodes) and its
 * `episode_tally` (its episode count and free episodes per season: the creator page's) change in
 * the same transaction as the episode write that changes them.
 *
 * Versions: a show is 1 when created, +1 on every change. Every episode write (create, edit, move,
 * delete) is one transaction with the show's profile: it moves the show's version from the v it
 * read (condition `version = v`: a concurrent episode write makes the loser read again and retry)
 * to v + 1, and the written episode takes that same v + 1 as its own version. So the show's
 * version is a clock for its episodes: an episode's version is never above its show's, and it
 * grows on every change. Why not "1 when created" for an episode: moving it (a new season or
 * number, so a new key: its key is its position) deletes the old item and puts the new one in one
 * transaction, and the projector (which keys an episode's view set by its id) takes the deletion
 * as version old + 0.5; the new item, at the show's next version, is always above that, whichever
 * of the two records the projector sees first (shared/projection/projector.ts).
 */

const SHOW_NOT_FOUND = 'Show not found';
const EPISODE_NOT_FOUND = 'Episode not found';
const SHOW_CHANGED = 'The show was changed by another request meanwhile, retry';
export const DUPLICATE_EPISODE = 'This show already has an episode with this season and episode number';
/**
 * Attempts of a write that lost a race on its show's version (optimistic concurrency): enough for
 * a burst of parallel uploads to one show, each retry after a short random pause.
 */
const ATTEMPTS = 8;
/** TransactWriteItems takes at most 100 operations. */
const TRANSACTION_LIMIT = 100;

/** A new id: `prefix` and 12 random hex digits. */
const hexId = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`;

/** Lower-case words joined by `_`, accents dropped (the seed's rule), at most 80 characters. */
const slugify = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 80)
    .replace(/^_+|_+$/g, '');

/**
 * A new show's slug: its slugified title, `_`, and the first 6 hex digits of its id. Fixed at
 * creation: a title edit keeps it, so the show's URLs keep working. A slug never starts with `sh_`
 * (`GET /shows/{id}` reads that as an id): such titles get a `show_` prefix.
 */
export const showSlug = (title: string, id: string): string => {
  const base = slugify(title) || 'show';
  const safe = base === 'sh' || base.startsWith('sh_') ? `show_${base}` : base;
  return `${safe}_${id.slice(3, 9)}`;
};

// ---- Views ---------------------------------------------------------------------------------

export const studioShow = (show: StoredShow): StudioShow => ({
  show_id: show.id,
  slug: show.slug,
  channel_url: `/shows/${show.slug}`,
  creator_id: show.creator_id,
  title: show.title,
  description: show.description,
  category: show.category,
  rating: show.rating,
  tags: show.tags,
  thumbnail_url: show.thumbnail_url,
  thumbnail_color: show.thumbnail_color,
  is_new: show.is_new,
  is_featured: show.is_featured,
  released_at: show.released_at,
  year: show.year,
  starring: show.starring,
  subtitles: show.subtitles,
  total_views: show.total_views,
  views_7d: show.views_7d,
  seasons: show.seasons,
  version: show.version,
});

export const studioEpisode = (episode: StoredEpisode): StudioEpisode => ({
  episode_id: episode.id,
  show_id: episode.show_id,
  season: episode.season,
  episode_number: episode.episode_number,
  title: episode.title,
  description: episode.description,
  duration_seconds: episode.duration_seconds,
  is_free: episode.access === 'free',
  is_premium: episode.access !== 'free',
  access: episode.access,
  price: episode.access === 'ppv' ? episode.price : null,
  currency: episode.access === 'ppv' ? episode.currency : null,
  air_date: episode.air_date,
  stream_url: episode.stream_url,
  thumbnail_url: episode.thumbnail_url,
  views: episode.views,
  version: episode.version,
});

// ---- Shows ---------------------------------------------------------------------------------

/**
 * A new show of `creator` (version 1, nothing watched yet, released at `released`): what the
 * studio makes and what the creator's first recording makes (shared/channels/recordings.ts).
 */
export const newShow = (
  creator: CreatorRecord,
  id: string,
  fields: Pick<StoredShow, 'title' | 'description' | 'category' | 'rating' | 'tags' | 'thumbnail_url'>,
  released: Date,
): NewShow => ({
  id,
  slug: showSlug(fields.title, id),
  ...fields,
  creator_id: creator.id,
  is_new: true,
  is_featured: false,
  thumbnail_color: creator.avatar_color,
  released_at: released.toISOString(),
  year: released.getUTCFullYear(),
  starring: creator.name,
  subtitles: [],
  total_views: 0,
  views_7d: 0,
  seasons: [],
  episode_tally: EMPTY_TALLY,
  version: 1,
});

/** `POST /studio/shows`: a new show of `creator` (one conditional PutItem). */
export const createShow = async (
  creator: CreatorRecord,
  body: CreateShowBody,
  now: Date,
): Promise<StoredShow> => {
  const id = hexId('sh_');
  const show = newShow(
    creator,
    id,
    {
      title: body.title,
      description: body.description,
      category: body.category,
      rating: body.rating,
      tags: body.tags ?? [],
      thumbnail_url: body.thumbnail_url ?? `${cdnUrl()}/shows/${id}/poster.jpg`,
    },
    now,
  );
  // 48 random bits: a taken id is a defect, not a race.
  if (!(await putNewShow(show))) throw new Error(`show id ${id} is taken`);
  return show;
};

/** `PATCH /studio/shows/{id}`: the fields given; the slug stays. 404 unless it is the caller's. */
export const updateShow = async (
  creatorId: string,
  showId: string,
  body: UpdateShowBody,
): Promise<StoredShow> => {
  const show = await updateShowFields(creatorId, showId, body);
  if (!show) throw new NotFoundError(SHOW_NOT_FOUND);
  return show;
};

/** The caller's show profile, read strongly consistent; 404 when missing or another creator's. */
const ownShow = async (creatorId: string, showId: string): Promise<StoredShow> => {
  const show = await getStoredShow(showId);
  if (!show || show.creator_id !== creatorId) throw new NotFoundError(SHOW_NOT_FOUND);
  return show;
};

/**
 * `DELETE /studio/shows/{id}`: the profile and every episode. One strongly consistent Query of the
 * show's item collection, then its episodes deleted in transactions of up to 100; the last one
 * also deletes the profile on condition that its version is still the one read (no episode was
 * added meanwhile; otherwise it starts again). A show of up to 99 episodes goes in one transaction.
 */
export const deleteShow = async (creatorId: string, showId: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    const deletion = await showDeletion(creatorId, showId);
    if (!deletion) throw new NotFoundError(SHOW_NOT_FOUND);
    const deletes = deletion.episodes;
    let written = true;
    while (written && deletes.length >= TRANSACTION_LIMIT)
      written = (await transact(deletes.splice(0, TRANSACTION_LIMIT))).written;
    if (written && (await transact([...deletes, deletion.profile])).written) return;
    if (attempt >= ATTEMPTS) throw new ConflictError(SHOW_CHANGED);
    await backoff(attempt, 12.5, 250);
  }
};

// ---- Episodes ------------------------------------------------------------------------------

const seasonTitle = (number: number): SeasonRecord => ({ number, title: `Season ${number}` });

/** The show's seasons with `add` and without `drop` (when given), in order. */
const seasonsWith = (seasons: readonly SeasonRecord[], add?: number, drop?: number): SeasonRecord[] => {
  const numbers = new Set(seasons.map((s) => s.number));
  if (drop !== undefined) numbers.delete(drop);
  if (add !== undefined) numbers.add(add);
  return [...numbers].sort((a, b) => a - b).map(seasonTitle);
};

/**
 * One episode transaction whose last operation is the show's clock (`showClockOperation`):
 * resolves when written; 409 when the operation at `duplicateAt` (an episode's new position)
 * failed its condition; `retry` when only the show's did (a concurrent write: read again) or
 * another transaction conflicted.
 */
const runEpisodeTransaction = async (
  operations: TransactOperation[],
  duplicateAt?: number,
): Promise<'done' | 'retry'> => {
  const outcome = await transact(operations);
  if (outcome.written) return 'done';
  if (duplicateAt !== undefined && outcome.failed.includes(duplicateAt))
    throw new ConflictError(DUPLICATE_EPISODE);
  return 'retry';
};

/** The access fields a body sets (`access` first, else `is_free`/`is_premium`), or none. */
const accessOf = (body: {
  is_free?: boolean | undefined;
  is_premium?: boolean | undefined;
  access?: EpisodeRecord['access'] | undefined;
  price?: number | undefined;
  currency?: string | undefined;
}): Pick<EpisodeRecord, 'access' | 'price' | 'currency'> | undefined => {
  const isFree = body.is_free ?? (body.is_premium === undefined ? undefined : !body.is_premium);
  const access = body.access ?? (isFree === undefined ? undefined : isFree ? 'free' : 'premium');
  if (access === undefined) return undefined;
  // The schema requires price and currency with ppv (shared/studio/schemas.ts).
  return access === 'ppv'
    ? { access, price: body.price ?? null, currency: body.currency ?? null }
    : { access, price: null, currency: null };
};

/** `POST /studio/shows/{id}/episodes`: the episode and the show's seasons, in one transaction. */
export const createEpisode = async (
  creatorId: string,
  showId: string,
  body: CreateEpisodeBody,
  now: Date,
): Promise<StoredEpisode> => {
  const id = hexId('ep_');
  const episode: EpisodeRecord = {
    id,
    show_id: showId,
    creator_id: creatorId,
    season: body.season,
    episode_number: body.episode_number,
    title: body.title,
    description: body.description ?? '',
    duration_seconds: body.duration_seconds,
    views: 0,
    ...accessOf(body)!,
    stream_url: body.stream_url ?? `${cdnUrl()}/vod/${id}/master.m3u8`,
    air_date: new Date(body.air_date ?? now).toISOString(),
    thumbnail_url: `${cdnUrl()}/vod/${id}/thumb.jpg`,
  };
  for (let attempt = 1; ; attempt++) {
    const show = await ownShow(creatorId, showId);
    const written: StoredEpisode = { ...episode, version: show.version + 1 };
    const outcome = await runEpisodeTransaction(
      [
        putEpisodeOperation(written),
        showClockOperation(show, seasonsWith(show.seasons, episode.season), { added: written }),
      ],
      0,
    );
    if (outcome === 'done') return written;
    if (attempt >= ATTEMPTS) throw new ConflictError(SHOW_CHANGED);
    await backoff(attempt, 12.5, 250);
  }
};

/** An episode of the caller's show by id, as stored now; 404 when it is not one of this show's. */
const findEpisode = async (showId: string, episodeId: string): Promise<StoredEpisode> => {
  const episode = await getStoredEpisode(showId, episodeId);
  if (!episode) throw new NotFoundError(EPISODE_NOT_FOUND);
  return episode;
};

/** The episode's fields after `body` (undefined ones kept), not yet versioned. */
const edited = (episode: StoredEpisode, body: UpdateEpisodeBody): StoredEpisode => {
  return {
    ...episode,
    season: body.season ?? episode.season,
    episode_number: body.episode_number ?? episode.episode_number,
    title: body.title ?? episode.title,
    description: body.description ?? episode.description,
    duration_seconds: body.duration_seconds ?? episode.duration_seconds,
    ...accessOf(body),
    air_date: body.air_date ? new Date(body.air_date).toISOString() : episode.air_date,
    stream_url: body.stream_url ?? episode.stream_url,
  };
};

/**
 * `PATCH /studio/shows/{id}/episodes/{episode_id}`. Fields only: the episode's update and the
 * show's version (its clock) in one transaction. A new season or episode number moves the item
 * (its key is the position): delete and put in one transaction with the show's seasons, 409 if
 * the new place is taken.
 */
export const updateEpisode = async (
  creatorId: string,
  showId: string,
  episodeId: string,
  body: UpdateEpisodeBody,
): Promise<StoredEpisode> => {
  for (let attempt = 1; ; attempt++) {
    const show = await ownShow(creatorId, showId);
    const episode = await findEpisode(showId, episodeId);
    const next = edited(episode, body);
    const moves = next.season !== episode.season || next.episode_number !== episode.episode_number;
    const written: StoredEpisode = { ...next, version: show.version + 1 };
    if (!moves) {
      const outcome = await runEpisodeTransaction([
        updateEpisodeOperation(episode, written),
        showClockOperation(show, show.seasons, { removed: episode, added: written }),
      ]);
      if (outcome === 'done') return written;
      if (attempt >= ATTEMPTS) throw new ConflictError(SHOW_CHANGED);
      await backoff(attempt, 12.5, 250);
      continue;
    }
    const moved = written;
    const keepOld =
      next.season === episode.season ||
      (await seasonHasOtherEpisodes(showId, episode.season, episode.episode_number));
    const outcome = await runEpisodeTransaction(
      [
        deleteEpisodeOperation(episode),
        putEpisodeOperation(moved),
        showClockOperation(
          show,
          seasonsWith(show.seasons, moved.season, keepOld ? undefined : episode.season),
          { removed: episode, added: moved },
        ),
      ],
      1,
    );
    if (outcome === 'done') return moved;
    if (attempt >= ATTEMPTS) throw new ConflictError(SHOW_CHANGED);
    await backoff(attempt, 12.5, 250);
  }
};

/** `DELETE /studio/shows/{id}/episodes/{episode_id}`: the episode and the show's seasons, in one transaction. */
export const deleteEpisode = async (creatorId: string, showId: string, episodeId: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    const show = await ownShow(creatorId, showId);
    const episode = await findEpisode(showId, episodeId);
    const keep = await seasonHasOtherEpisodes(showId, episode.season, episode.episode_number);
    const outcome = await runEpisodeTransaction([
      deleteEpisodeOperation(episode),
      showClockOperation(show, seasonsWith(show.seasons, undefined, keep ? undefined : episode.season), {
        removed: episode,
      }),
    ]);
    if (outcome === 'done') return;
    if (attempt >= ATTEMPTS) throw new ConflictError(SHOW_CHANGED);
    await backoff(attempt, 12.5, 250);
  }
};
