import type { ProgramRecord } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';

/**
 * EPG programs, stored per channel per UTC day (see docs/data-model.md, EPG):
 * PK `CHANNEL#<channel id>`, SK `DAY#<YYYY-MM-DD>` → `programs` (that day's programs by start,
 * a program belonging to the day it starts on). Programs last at most 24 h, so the programs
 * overlapping [from, to) are in the buckets of day(from) − 1 … day(to): one BatchGetItem of known
 * keys, whatever the schedule's length (a day's bucket is ~15 programs, ~5 KB).
 */
const DAY = 86_400_000;
const dayKey = (instant: number) => new Date(Math.floor(instant / DAY) * DAY).toISOString().slice(0, 10);
const key = (channelId: string, day: string) => ({ PK: `CHANNEL#${channelId}`, SK: `DAY#${day}` });

/** The day-bucket items for a set of programs (the catalogue loader writes them). */
export const programItems = (programs: readonly ProgramRecord[]): Record<string, unknown>[] => {
  const buckets = new Map<string, ProgramRecord[]>();
  for (const p of programs) {
    const k = `${p.channel_id}|${dayKey(Date.parse(p.start))}`;
    buckets.set(k, [...(buckets.get(k) ?? []), p]);
  }
  return [...buckets].map(([k, list]) => {
    const [channelId, day] = k.split('|') as [string, string];
    return {
      ...key(channelId, day),
      entity: 'program_day',
      programs: [...list].sort((a, b) => a.start.localeCompare(b.start)),
    };
  });
};

const bucketKeys = (channelId: string, from: number, to: number) => {
  const keys = [];
  for (let t = Math.floor(from / DAY) * DAY - DAY; t < to; t += DAY) keys.push(key(channelId, dayKey(t)));
  return keys;
};

/**
 * Programs of each channel overlapping [from, to), sorted by start. One BatchGetItem for all
 * channels' day buckets (at most 100 keys per call: a 20-channel guide page over 3 days is 80).
 */
export const listProgramsOverlapping = async (
  channelIds: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, ProgramRecord[]>> => {
  const keys = channelIds.flatMap((id) => bucketKeys(id, from, to));
  const items = await batchGet(keys, (item) => `${item.PK}|${item.SK}`);
  const result = new Map<string, ProgramRecord[]>(channelIds.map((id) => [id, []]));
  for (const item of items) {
    const channelId = String(item.PK).slice('CHANNEL#'.length);
    for (const p of item.programs as ProgramRecord[]) {
      if (Date.parse(p.end) > from && Date.parse(p.start) < to) result.get(channelId)?.push(p);
    }
  }
  for (const list of result.values()) list.sort((a, b) => a.start.localeCompare(b.start));
  return result;
};
