import type { CreatorRecord, ProgramRecord } from '../catalog/model.ts';
import { listChannelNumbers } from '../creators/creator-listings.ts';
import { getCreatorByChannel, getCreators } from '../creators/creator-repository.ts';
import { NotFoundError } from '../errors/errors.ts';
import { type Pagination, pagination } from '../pagination.ts';
import { liveViewers } from './channel-schedule.ts';
import { listGuidePrograms } from './program-repository.ts';
import { programView } from './program-view.ts';
import type { GuideQuery, GuideSchedule } from './schemas.ts';
import {
  formatDate,
  isoInZone,
  parseDate,
  SLOT_MINUTES,
  scheduleWindow,
  timeline,
  todayIn,
  wallTime,
} from './time.ts';

/** The guide: the multi-channel grid (creators by channel number and their programs). */

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Default guide window without `date` (hours from the current half hour). */
export const GUIDE_DEFAULT_HOURS = 3;

/**
 * The guide window: with `date`, that calendar day in `timezone` (its first `hours` when given);
 * without, from the start of the current 30-minute slot in `timezone` for `hours` (default 3).
 * Slots are aligned on the zone's wall clock, so :45 zones (Kathmandu) start at :00/:30 local.
 */
export const guideWindow = (q: Pick<GuideQuery, 'date' | 'hours' | 'timezone'>, now: number) => {
  if (q.date) {
    const day = scheduleWindow(parseDate(q.date)!, q.timezone);
    return { start: day.start, end: q.hours ? Math.min(day.end, day.start + q.hours * HOUR) : day.end };
  }
  const wall = wallTime(now, q.timezone);
  const intoSlot =
    (wall.minute % SLOT_MINUTES) * MINUTE + wall.second * 1000 + (((now % 1000) + 1000) % 1000);
  const start = now - intoSlot;
  return { start, end: start + (q.hours ?? GUIDE_DEFAULT_HOURS) * HOUR };
};

/**
 * `GET /tv/v3/guide/schedule` (response designed by us, spec 4.9): the multi-channel grid.
 * `data`: `timezone`, `date` (of the window start in the zone), `start_time`/`end_time` (ISO with
 * offset), `timeline`, `channels` (channel-number order; each with its facts and `programs`, full
 * EPG program objects overlapping the window). Paginated over channels (`meta_data`);
 * `channel_id` narrows to one channel (404 when unknown). The programs: a Query per 6-hour block
 * of the guide index, whatever the page size (shared/epg/program-repository.ts).
 */
export const guideSchedule = async (
  q: GuideQuery,
  now: Date,
): Promise<{ data: GuideSchedule; meta_data: Pagination }> => {
  const { start, end } = guideWindow(q, now.getTime());
  // Two round trips (issue 41): the page's channel numbers (or the one channel's id), then its
  // creators and programs at once.
  let creators: CreatorRecord[];
  let programs: Map<string, ProgramRecord[]>;
  let total: number;
  if (q.channel_id) {
    const channelId = q.channel_id;
    const [one, own] = await Promise.all([
      getCreatorByChannel(channelId),
      q.page === 1 ? listGuidePrograms([{ channelId, channelNumber: 0 }], start, end) : new Map(),
    ]);
    if (!one) throw new NotFoundError('Channel not found');
    creators = q.page === 1 ? [one] : [];
    programs = own;
    total = 1;
  } else {
    const page = await listChannelNumbers(q.page, q.limit);
    [creators, programs] = await Promise.all([
      getCreators(page.channels.map((c) => c.creatorId)),
      listGuidePrograms(page.channels, start, end),
    ]);
    total = page.total;
  }
  return {
    data: {
      timezone: q.timezone,
      date: formatDate(todayIn(start, q.timezone)),
      start_time: isoInZone(start, q.timezone),
      end_time: isoInZone(end, q.timezone),
      timeline: timeline({ start, end }, q.timezone),
      channels: creators.map((c) => ({
        channel_id: c.channel.channel_id,
        channel_name: c.channel.channel_name,
        channel_number: c.channel.channel_number,
        creator_id: c.id,
        ...liveViewers(c),
        programs: (programs.get(c.channel.channel_id) ?? []).map((p) =>
          programView(p, q.timezone, now.getTime()),
        ),
      })),
    },
    meta_data: pagination(total, q.page, q.limit),
  };
};
