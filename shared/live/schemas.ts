import * as z from 'zod';
import { DEVICE_TYPES, QUALITY_VALUES } from '../catalog/model.ts';
import { isValidTimeZone } from '../epg/time.ts';
import { boolParam, enumParam, idParam, pageQuery } from '../http/validation.ts';

const quality = z.enum(QUALITY_VALUES, { error: `quality must be one of: ${QUALITY_VALUES.join(', ')}` });
const deviceType = z.enum(DEVICE_TYPES, { error: `device_type must be one of: ${DEVICE_TYPES.join(', ')}` });
const sessionId = z.uuid({ error: 'session_id must be a session id (UUID)' });

export const creatorPath = z.object({ id: idParam });

export const streamQuery = z.object({
  quality: enumParam('quality', QUALITY_VALUES).default('auto'),
  dvr: boolParam('dvr').default(false),
});

export const sessionQuery = z.object({ session_id: sessionId });

export const openWatchBody = z.object({
  channel_id: idParam,
  device_type: deviceType,
  quality: quality.default('auto'),
  timezone: z
    .string()
    .refine(isValidTimeZone, { error: 'timezone must be an IANA time zone such as America/New_York' })
    .default('UTC'),
});

/** PATCH: `session_id` and `quality` are required (changing quality is the point); `device_type` optional (a cast to another device). */
export const changeWatchBody = z.object({
  session_id: sessionId,
  quality,
  device_type: deviceType.optional(),
});

export const ondemandQuery = z.object({
  type: enumParam('type', ['all', 'free', 'premium', 'ppv']).default('all'),
  season: z.coerce.number({ error: 'season must be a whole number' }).int().min(1).max(99).optional(),
  ...pageQuery(20),
});
