import * as z from 'zod/mini';
import { REPORT_CATEGORIES, REPORT_TARGET_TYPES } from './report-repository.ts';

/** `POST /reports` body; `reason` is required when `category` is `other`. */
export const createReportBody = z
  .object({
    target_type: z.enum(REPORT_TARGET_TYPES, {
      error: `must be one of: ${REPORT_TARGET_TYPES.join(', ')}`,
    }),
    target_id: z
      .string({ error: 'is required' })
      .check(
        z.minLength(1, { error: 'is required' }),
        z.maxLength(128, { error: 'must be at most 128 characters' }),
        z.regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must contain only letters, digits, _ . : -' }),
      ),
    category: z.enum(REPORT_CATEGORIES, { error: `must be one of: ${REPORT_CATEGORIES.join(', ')}` }),
    reason: z.optional(
      z.string().check(z.trim(), z.maxLength(1000, { error: 'must be at most 1000 characters' })),
    ),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.category === 'other' && !body.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required when category is other' });
    }),
  );

export type CreateReportBody = z.infer<typeof createReportBody>;
