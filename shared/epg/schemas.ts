import * as z from 'zod/mini';
import { idParam, MAX_PAGE_SIZE, pageQuery, wholeNumberParam } from '../http/validation.ts';
import { isValidTimeZone, parseClock, parseDate } from './time.ts';

const timezone = z._default(
  z.string().check(
    z.refine(isValidTimeZone, {
      error: 'timezone must be an IANA time zone such as America/New_York or UTC',
    }),
  ),
  'UTC',
);
const date = z
  .string()
  .check(z.refine((v) => parseDate(v) !== undefined, { error: 'date must be a calendar date YYYY-MM-DD' }));
const clockTime = (name: string) =>
  z
    .string()
    .check(z.refine((v) => parseClock(v) !== undefined, { error: `${name} must be HH:MM (24-hour)` }));
const limit = (fallback: number) =>
  z._default(
    wholeNumberParam(`limit must be a whole number between 1 and ${MAX_PAGE_SIZE}`, 1, MAX_PAGE_SIZE),
    fallback,
  );

export const channelPath = z.object({ id: idParam });

export const scheduleQuery = z
  .object({
    date: z.optional(date),
    timezone,
    from: z.optional(clockTime('from')),
    to: z.optional(clockTime('to')),
  })
  .check(
    z.refine((q) => !q.from || !q.to || parseClock(q.from)! < parseClock(q.to)!, {
      error: 'from must be earlier than to',
      path: ['from'],
    }),
  );

export const timezoneQuery = z.object({ timezone });
export const upcomingQuery = (fallback: number) => z.object({ timezone, limit: limit(fallback) });

export const guideQuery = z.object({
  channel_id: z.optional(idParam),
  date: z.optional(date),
  hours: z.optional(wholeNumberParam('hours must be 1 to 24', 1, 24)),
  timezone,
  ...pageQuery(20),
});
