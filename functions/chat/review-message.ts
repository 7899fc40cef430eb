import { reviewWithinBudget } from '../../shared/chat/review-runtime.ts';

/**
 * IVS Chat's message review handler (docs/chat.md "Review"): the rules over cached settings, or
 * the room's fallback when they cannot be had within the budget (shared/chat/review-runtime.ts).
 */
export const handler = reviewWithinBudget;
