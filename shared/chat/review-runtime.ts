import { perContainer } from '../aws/local-hook.ts';
import { logger, metrics, recordMetric } from '../observability/index.ts';
import {
  badgesOf,
  type ReviewEvent,
  type ReviewResponse,
  reviewMessage,
  type SlowModeState,
} from './review.ts';
import { reviewSettings, senderStanding } from './review-settings.ts';
import { REVIEW_FALLBACK } from './rooms.ts';

/**
 * One review of a message as IVS Chat asks for it (docs/chat.md "Review"): IVS waits at most
 * 200 ms. The rules are pure (review.ts) over cached settings and the sender's cached standing
 * (review-settings.ts: ban, and the moderator and subscriber badges it claims); the only network calls are their loads, side by side. When that load fails or takes more than LOAD_BUDGET_MS, the
 * room's stated fallback is answered here (REVIEW_FALLBACK, the same IVS applies when the handler
 * fails or is late), so the outcome of a failure does not depend on who gives up first. It never
 * throws; a fallback and a refusal are logged and counted.
 */
export const LOAD_BUDGET_MS = 120;

const slowMode = /* @__PURE__ */ perContainer((): SlowModeState => new Map());

/** `promise`, or a rejection after `ms` if it has not settled by then. */
const withinMs = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`settings not loaded within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/** Reviews `event` now: the rules' answer, or the room's fallback if its settings cannot be had in time. */
export const reviewWithinBudget = async (event: ReviewEvent): Promise<ReviewResponse> => {
  const now = Date.now();
  let result: ReviewResponse;
  try {
    const [settings, standing] = await withinMs(
      Promise.all([
        reviewSettings(event.RoomArn, now),
        senderStanding(event.RoomArn, String(event.Sender?.UserId ?? ''), badgesOf(event), now),
      ]),
      LOAD_BUDGET_MS,
    );
    result = reviewMessage(event, settings, now, slowMode(), standing);
  } catch (error) {
    const { name, message } = error as Error;
    logger.error('chat review fell back', {
      roomArn: event?.RoomArn,
      fallback: REVIEW_FALLBACK,
      error: { name, message },
    });
    recordMetric('chat_review_fallbacks');
    metrics.publishStoredMetrics();
    return { ReviewResult: REVIEW_FALLBACK };
  }
  if (result.ReviewResult === 'DENY') {
    logger.info('chat message denied', { roomArn: event.RoomArn, reason: result.Attributes?.Reason });
    recordMetric('chat_messages_denied');
    metrics.publishStoredMetrics();
  }
  return result;
};
