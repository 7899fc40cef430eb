import * as z from 'zod/mini';
import { markUndeliverable, type Suppression } from './suppression-repository.ts';

/**
 * SES's bounce and complaint events (the stack's configuration set publishes them to the default
 * EventBridge bus; a rule puts them on the mail feedback queue: infra/mail.ts), turned into
 * suppressions: a **permanent** bounce or a complaint marks each recipient it names undeliverable.
 * Transient bounces (a full mailbox, a greylisting server) change nothing: SES retried them.
 * Fields as in SES's event publishing record (`detail` of "Email Bounced" and
 * "Email Complaint Received"); anything else in the document is ignored.
 */
const recipients = /* @__PURE__ */ (() =>
  z.array(z.object({ emailAddress: z.string().check(z.minLength(3)) })))();

const bounce = /* @__PURE__ */ (() =>
  z.object({
    eventType: z.literal('Bounce'),
    bounce: z.object({ bouncedRecipients: recipients, bounceType: z.string(), timestamp: z.string() }),
  }))();
const complaint = /* @__PURE__ */ (() =>
  z.object({
    eventType: z.literal('Complaint'),
    complaint: z.object({ complainedRecipients: recipients, timestamp: z.string() }),
  }))();

/** An EventBridge event of SES (what the queue's message body holds). */
export const sesFeedbackEvent = /* @__PURE__ */ (() => z.object({ detail: z.union([bounce, complaint]) }))();

/** The suppressions an event calls for (none for a transient bounce); undefined when it is not one. */
export const suppressionsOf = (event: unknown): Suppression[] | undefined => {
  const parsed = sesFeedbackEvent.safeParse(event);
  if (!parsed.success) return undefined;
  const { detail } = parsed.data;
  if (detail.eventType === 'Complaint') {
    return detail.complaint.complainedRecipients.map((r) => ({
      address: r.emailAddress,
      reason: 'complaint' as const,
      reported_at: detail.complaint.timestamp,
    }));
  }
  if (detail.bounce.bounceType !== 'Permanent') return [];
  return detail.bounce.bouncedRecipients.map((r) => ({
    address: r.emailAddress,
    reason: 'bounce' as const,
    reported_at: detail.bounce.timestamp,
  }));
};

/** Applies one event: marks its addresses undeliverable. Returns how many it marked; undefined when not an SES event. */
export const applyMailFeedback = async (event: unknown): Promise<number | undefined> => {
  const suppressions = suppressionsOf(event);
  if (!suppressions) return undefined;
  for (const suppression of suppressions) await markUndeliverable(suppression);
  return suppressions.length;
};
