import { REVIEW_FALLBACK } from '../../shared/chat/rooms.ts';
import {
  type ReviewEvent,
  type ReviewResponse,
  reviewMessage,
  type SlowModeState,
} from '../../shared/chat/review.ts';
import { reviewSettings } from '../../shared/chat/review-settings.ts';
import { perContainer } from '../../shared/aws/local-hook.ts';
import { logger, metrics, recordMetric } from '../../shared/observability/index.ts';

/**
 * IVS Chat's message review handler (docs/chat.md "Review"): IVS calls it for every message and
 * waits at most 200 ms. The rules are pure (shared/chat/review.ts) over cached settings; the only
 * network call is a settings load (first message of a room in a container, then every 10 s).
 * When that load fails or takes more than LOAD_BUDGET_MS, the handler answers the room's stated
 * fallback itself (REVIEW_FALLBACK, the same IVS applies when the handler fails or is late), so
 * the outcome of a failure does not depend on who gives up first. It never throws.
 */
export const LOAD_BUDGET_MS = 120;

const slowMode = /* @__PURE__ */ perContainer((): SlowModeState => new Map());

const withinBudget = <T>(promise: Promise<T>, ms: number): Promise<T> =>
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

export const handler = async (event: ReviewEvent): Promise<ReviewResponse> => {
  const now = Date.now();
  let result: ReviewResponse;
  try {
    const settings = await withinBudget(reviewSettings(event.RoomArn, now), LOAD_BUDGET_MS);
    result = reviewMessage(event, settings, now, slowMode());
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
