import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { EXPORT_STATUSES } from './export-model.ts';

/** Request and response schemas of the account routes (docs/accounts.md). */

/** `DELETE /me` body: the caller confirms by typing their handle or email. */
export const deleteAccountBody = /* @__PURE__ */ (() =>
  z.object({
    confirm: described(
      z
        .string({ error: 'is required' })
        .check(
          z.minLength(1, { error: 'is required' }),
          z.maxLength(320, { error: 'must be at most 320 characters' }),
        ),
      "The account's handle or email, typed by its owner to confirm the deletion",
      'maya_lopez',
    ),
  }))();
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;

const buildResponses = () => ({
  AccountExport: named(
    'AccountExport',
    z.object({
      export_id: described(z.string(), 'The export', 'exp_0b6f2d3c4e5f4a1b8c9d0e1f2a3b4c5d'),
      status: described(
        z.enum(EXPORT_STATUSES),
        '`pending` while the document is built, `ready` once it can be downloaded, `failed` when it could not be built (start another)',
        'ready',
      ),
      requested_at: described(z.string(), 'When it was requested', '2026-11-29T10:00:00.000Z'),
      ready_at: described(
        z.nullable(z.string()),
        'When it was ready (or failed), else null',
        '2026-11-29T10:00:04.000Z',
      ),
      url: described(
        z.nullable(z.string()),
        'When ready: a URL that downloads the JSON document (docs/export.schema.json) for an hour from this answer; ask again for a fresh one. Else null',
        'https://exports.example.com/exports/7f1c.json?X-Amz-Signature=...',
      ),
      url_expires_at: described(
        z.nullable(z.string()),
        'When `url` stops working, else null',
        '2026-11-29T11:00:04.000Z',
      ),
    }),
    "An account's data export",
  ),
  AccountDeletion: named(
    'AccountDeletion',
    z.object({
      status: described(
        z.literal('deleting'),
        'The account is deleted; its data is being purged',
        'deleting',
      ),
      deleted_at: described(z.string(), 'When the deletion was requested', '2026-11-29T10:00:00.000Z'),
      purge_by: described(
        z.string(),
        'By when every item of the account is gone (docs/accounts.md "Deletion")',
        '2026-11-29T10:30:00.000Z',
      ),
    }),
    'A deletion under way',
  ),
});

export const accountDataResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
