import * as z from 'zod/mini';

/**
 * The account export document (docs/export.schema.json, generated from this schema by
 * `npm run export:schema`; docs/accounts.md "Export"): everything the platform keeps about one
 * account, as one JSON document. Records are the stored records without storage keys, so a
 * field added to an entity appears here without a change (each section's object is open);
 * secrets never appear (password hash, token hashes, webhook secrets, verification codes).
 */
const instant = /* @__PURE__ */ (() => z.string().check(z.minLength(1)))();
const record = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape);

export const ExportDocument = /* @__PURE__ */ (() =>
  z.object({
    format: z.literal('creator-streaming.account-export'),
    version: z.literal('1'),
    generated_at: instant,
    account_id: z.string(),
    profile: z.object({
      email: z.string(),
      email_verified: z.boolean(),
      handle: z.nullable(z.string()),
      creator_name: z.string(),
      user_status: z.string(),
      category: z.nullable(z.string()),
      completed_steps: z.array(z.string()),
      social: z.array(z.object({ platform: z.string(), connected_at: instant })),
      google_linked: z.boolean(),
      created_at: instant,
    }),
    /** The creator profile when the account is a creator's, else null. */
    creator: z.nullable(record({ id: z.string(), name: z.string(), slug: z.string() })),
    /** The creator's payout account (Stripe Connect) when there is one. */
    payout_account: z.nullable(record({ creator_id: z.string() })),
    /**
     * A creator's earnings: one line per paid charge or invoice and one per charge's refunds and
     * disputes (`#reversal`, negative), in minor units of `currency` (what `GET /studio/payouts`
     * sums per month). No payer is named.
     */
    earnings: z.array(
      z.object({
        source_id: z.string(),
        kind: z.enum(['subscription', 'purchase']),
        currency: z.string(),
        gross: z.number(),
        platform_fee: z.number(),
        net: z.number(),
        paid_at: instant,
      }),
    ),
    follows: z.array(record({ creator_id: z.string(), followed_at: instant })),
    /** Subscriptions and purchases, with the provider's ids. */
    entitlements: z.array(record({ kind: z.string(), creator_id: z.string(), status: z.string() })),
    /**
     * Each provider object behind an entitlement (a Stripe subscription or payment intent, an App
     * Store transaction, a Google Play purchase token) with its latest state: an entitlement shows
     * one of them (docs/payments.md), so a second subscription's ids are here.
     */
    entitlement_sources: z.array(
      record({ kind: z.string(), creator_id: z.string(), source: z.string(), status: z.string() }),
    ),
    payments: z.object({ stripe_customer_id: z.nullable(z.string()) }),
    reactions: z.array(record({ targetType: z.string(), targetId: z.string(), emoji: z.string() })),
    reports: z.array(record({ target_type: z.string(), target_id: z.string(), created_at: instant })),
    continue_watching: z.array(
      record({ content_id: z.string(), position_seconds: z.number(), updated_at: instant }),
    ),
    /** Live watch sessions the account's stream slots still name (older ones expire within a day). */
    watch_sessions: z.array(record({ session_id: z.string(), creator_id: z.string(), started_at: instant })),
    /**
     * Second factors enrolled: type, label, dates, recovery codes left and whether they are of the
     * old kind (never the secret or a code).
     */
    second_factors: z.array(
      z.object({
        id: z.string(),
        type: z.literal('totp'),
        label: z.string(),
        created_at: instant,
        last_used_at: z.nullable(z.string()),
        recovery_codes_left: z.number(),
        recovery_codes_outdated: z.boolean(),
      }),
    ),
    /** Signed-in devices: refresh-token families (no token material). */
    sign_ins: z.array(z.object({ created_at: instant, revoked: z.boolean(), expires_at: instant })),
    webhook_subscriptions: z.array(
      record({ id: z.string(), type: z.string(), callback: z.string(), status: z.string() }),
    ),
    /**
     * What creators' chats keep about the account: its bans and moderator appointments (`kind`
     * `chat-ban`, `chat-moderator`), the moderation actions on it or by it (`chat-action`, what in
     * `action`) and the bans it made as a moderator, each in the chat of `creator_id`. Who acted
     * and on whom by role only: no other account's id (docs/accounts.md "Export").
     */
    chat_moderation: z.array(
      z.object({
        kind: z.enum(['chat-ban', 'chat-moderator', 'chat-action']),
        creator_id: z.string(),
        /** Who acted: the account itself, the channel's creator or one of its moderators. */
        by_role: z.enum(['you', 'creator', 'moderator']),
        /** On whom: the account itself, another account (not named), or no one (a setting, a message). */
        target_role: z.nullable(z.enum(['you', 'another account'])),
        at: instant,
        action: z.optional(z.string()),
        /** A ban's end (null: until lifted). */
        until: z.optional(z.nullable(z.string())),
        reason: z.optional(z.nullable(z.string())),
        duration_seconds: z.optional(z.nullable(z.number())),
        message_id: z.optional(z.nullable(z.string())),
      }),
    ),
    /** Analytics: the event store holds pseudonymised rows only (player events and payment facts). */
    analytics: z.object({
      note: z.string(),
    }),
  }))();
export type ExportDocument = z.infer<typeof ExportDocument>;
