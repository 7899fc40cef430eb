import { reviewWithinBudget } from '../../shared/chat/review-runtime.ts';
import { worker } from '../../shared/platform/worker.ts';
import { chatReviewRow } from '../workers.ts';

/**
 * IVS Chat's message review handler (docs/chat.md "Review"): the rules over cached settings, or
 * the room's fallback when they cannot be had within the budget (shared/chat/review-runtime.ts).
 */
export const handler = worker(chatReviewRow, reviewWithinBudget);
