import type { ProgramRecord } from '../catalog/model.ts';
import { onAirNow } from '../epg/on-air.ts';
import { listTalliedShowsByCreator } from '../shows/show-repository.ts';
import { creatorBlocks } from './creator-blocks.ts';
import { requireCreator } from '../creators/creator-repository.ts';
import { getRelationship } from '../creators/relationship-repository.ts';
import type { CreatorChannelProgram, CreatorDetail, TvCreatorDetail } from '../creators/schemas.ts';

/** `GET /creators/:id`: the detail blocks, with the caller's follow/subscription state when signed in. */
export const creatorDetail = async (
  idOrSlug: string,
  accountId: string | undefined,
  now: Date,
): Promise<CreatorDetail> => {
  const creator = await requireCreator(idOrSlug);
  const [shows, relationship] = await Promise.all([
    listTalliedShowsByCreator(creator.id),
    getRelationship(accountId, creator.id),
  ]);
  return creatorBlocks(creator, shows, relationship, now);
};

const programSummary = (p: ProgramRecord | undefined): CreatorChannelProgram | null =>
  p
    ? {
        program_id: p.program_id,
        title: p.title,
        start_time: p.start,
        end_time: p.end,
        thumbnail_url: p.thumbnail_url,
        duration_minutes: Math.round((Date.parse(p.end) - Date.parse(p.start)) / 60_000),
      }
    : null;

/**
 * `GET /tv/v3/creators/{id}`: the detail blocks plus `is_live` and `channels[]` with each
 * channel's current and next program (times in UTC).
 */
export const tvCreatorDetail = async (
  idOrSlug: string,
  accountId: string | undefined,
  now: Date,
): Promise<TvCreatorDetail> => {
  const creator = await requireCreator(idOrSlug);
  const [shows, relationship, onAir] = await Promise.all([
    listTalliedShowsByCreator(creator.id),
    getRelationship(accountId, creator.id),
    onAirNow(creator, now),
  ]);
  return {
    id: creator.id,
    is_live: creator.live !== null,
    blocks: creatorBlocks(creator, shows, relationship, now),
    channels: [
      {
        channel_id: creator.channel.channel_id,
        channel_name: creator.channel.channel_name,
        channel_number: creator.channel.channel_number,
        is_live: creator.live !== null,
        current_program: programSummary(onAir.current),
        next_program: programSummary(onAir.next),
      },
    ],
  };
};
