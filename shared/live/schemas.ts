import * as z from 'zod/mini';
import { DEVICE_TYPES, QUALITY_VALUES } from '../catalog/model.ts';
import { isValidTimeZone } from '../epg/time.ts';
import { boolParam, enumParam, idParam, pageQuery, wholeNumberParam } from '../http/validation.ts';

const quality = z.enum(QUALITY_VALUES, { error: `quality must be one of: ${QUALITY_VALUES.join(', ')}` });
const deviceType = z.enum(DEVICE_TYPES, { error: `device_type must be one of: ${DEVICE_TYPES.join(', ')}` });
const sessionId = z.uuid({ error: 'session_id must be a session id (UUID)' });

export const creatorPath = z.object({ id: idParam });

export const streamQuery = z.object({
  quality: z._default(enumParam('quality', QUALITY_VALUES), 'auto'),
  dvr: z._default(boolParam('dvr'), false),
});

export const sessionQuery = z.object({ session_id: sessionId });

export const openWatchBody = z.object({
  channel_id: idParam,
  device_type: deviceType,
  quality: z._default(quality, 'auto'),
  timezone: z._default(
    z
      .string()
      .check(
        z.refine(isValidTimeZone, { error: 'timezone must be an IANA time zone such as America/New_York' }),
      ),
    'UTC',
  ),
});

/** PATCH: `session_id` and `quality` are required (changing quality is the point); `device_type` optional (a cast to another device). */
export const changeWatchBody = z.object({
  session_id: sessionId,
  quality,
  device_type: z.optional(deviceType),
});

export const ondemandQuery = z.object({
  type: z._default(enumParam('type', ['all', 'free', 'premium', 'ppv']), 'all'),
  season: z.optional(wholeNumberParam('season must be a whole number from 1 to 99', 1, 99)),
  ...pageQuery(20),
});
