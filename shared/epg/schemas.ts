import * as z from 'zod';
import { idParam, MAX_PAGE_SIZE, pageQuery } from '../http/validation.ts';
import { isValidTimeZone, parseClock, parseDate } from './time.ts';

const timezone = z
  .string()
  .refine(isValidTimeZone, { error: 'timezone must be an IANA time zone such as America/New_York or UTC' })
  .default('UTC');
const date = z
  .string()
  .refine((v) => parseDate(v) !== undefined, { error: 'date must be a calendar date YYYY-MM-DD' });
const clockTime = (name: string) =>
  z.string().refine((v) => parseClock(v) !== undefined, { error: `${name} must be HH:MM (24-hour)` });
const limit = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1, { error: `limit must be a whole number between 1 and ${MAX_PAGE_SIZE}` })
    .max(MAX_PAGE_SIZE, { error: `limit must be a whole number between 1 and ${MAX_PAGE_SIZE}` })
    .default(fallback);

export const channelPath = z.object({ id: idParam });

export const scheduleQuery = z
  .object({
    date: date.optional(),
    timezone,
    from: clockTime('from').optional(),
    to: clockTime('to').optional(),
  })
  .refine((q) => !q.from || !q.to || parseClock(q.from)! < parseClock(q.to)!, {
    error: 'from must be earlier than to',
    path: ['from'],
  });

export const timezoneQuery = z.object({ timezone });
export const upcomingQuery = (fallback: number) => z.object({ timezone, limit: limit(fallback) });

export const guideQuery = z.object({
  channel_id: idParam.optional(),
  date: date.optional(),
  hours: z.coerce
    .number()
    .int()
    .min(1, { error: 'hours must be 1 to 24' })
    .max(24, { error: 'hours must be 1 to 24' })
    .optional(),
  timezone,
  ...pageQuery(20),
});
