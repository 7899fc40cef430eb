import * as z from 'zod';
import { REPORT_CATEGORIES, REPORT_TARGET_TYPES } from './report-repository.ts';

/** `POST /reports` body; `reason` is required when `category` is `other`. */
export const createReportBody = z
  .object({
    target_type: z.enum(REPORT_TARGET_TYPES, {
      error: `must be one of: ${REPORT_TARGET_TYPES.join(', ')}`,
    }),
    target_id: z
      .string({ error: 'is required' })
      .min(1, { error: 'is required' })
      .max(128, { error: 'must be at most 128 characters' })
      .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must contain only letters, digits, _ . : -' }),
    category: z.enum(REPORT_CATEGORIES, { error: `must be one of: ${REPORT_CATEGORIES.join(', ')}` }),
    reason: z.string().trim().max(1000, { error: 'must be at most 1000 characters' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.category === 'other' && !body.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required when category is other' });
  });

export type CreateReportBody = z.infer<typeof createReportBody>;
