import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { displayText } from '../schema/display-text.ts';
import { REPORT_CATEGORIES, REPORT_TARGET_TYPES } from '../catalog/model.ts';

const CATEGORY_NOTE =
  '`spam`, `harassment`, `hate_speech`, `violence`, `sexual_content`, `child_safety`, `misinformation`, `copyright`, or `other`';

/** `POST /reports` body; `reason` is required when `category` is `other`. */
export const createReportBody = /* @__PURE__ */ (() =>
  z
    .object({
      target_type: described(
        z.enum(REPORT_TARGET_TYPES, {
          error: `must be one of: ${REPORT_TARGET_TYPES.join(', ')}`,
        }),
        'What is reported: a `video` (an episode) or a `show`',
        'video',
      ),
      target_id: described(
        z
          .string({ error: 'is required' })
          .check(
            z.minLength(1, { error: 'is required' }),
            z.maxLength(128, { error: 'must be at most 128 characters' }),
            z.regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must contain only letters, digits, _ . : -' }),
          ),
        'Id of the episode (`video`) or show',
        'ep_0001_s1e01',
      ),
      category: described(
        z.enum(REPORT_CATEGORIES, { error: `must be one of: ${REPORT_CATEGORIES.join(', ')}` }),
        `Why it is reported: ${CATEGORY_NOTE}`,
        'spam',
      ),
      reason: described(
        z.optional(
          displayText({
            name: 'reason',
            min: 0,
            max: 1000,
            multiline: true,
            errors: { max: 'must be at most 1000 characters' },
          }),
        ),
        'Details for the moderators (trimmed, at most 1000 characters); required when `category` is `other`',
        'Links to a scam site in every episode description.',
      ),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.category === 'other' && !body.reason)
          ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required when category is other' });
      }),
    ))();

export type CreateReportBody = z.infer<typeof createReportBody>;

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const Report = named(
    'Report',
    z.object({
      report_id: described(z.string(), 'Report id (UUID)', '0c9d7f4e-2a61-4b8e-9f3d-5e1a7b2c8d40'),
      target_type: described(z.enum(REPORT_TARGET_TYPES), 'What was reported', 'video'),
      target_id: described(z.string(), 'Id of the episode or show', 'ep_0001_s1e01'),
      category: described(z.enum(REPORT_CATEGORIES), `Why: ${CATEGORY_NOTE}`, 'spam'),
      reason: described(
        z.nullable(z.string()),
        'Details given with the report; null when none (or only blanks) were sent',
        'Links to a scam site in every episode description.',
      ),
      status: described(
        z.literal('pending_review'),
        'Moderation state: `pending_review` until a moderator acts',
        'pending_review',
      ),
      created_at: described(
        z.string(),
        'When the report was received (ISO 8601, UTC)',
        '2025-06-01T12:00:00.000Z',
      ),
    }),
    'A content report as filed for moderation',
  );
  return { Report };
};
export const reportResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type Report = z.infer<Built['Report']>;
