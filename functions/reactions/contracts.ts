import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import { reactionBody, reactionSummaryPath } from '../../shared/reactions/schemas.ts';

const tag = 'Reactions';
const envelope = 'reactions';
/** Reacting is cheap to abuse: 60 changes a minute per account. */
const rateLimit = { limit: 60, windowSeconds: 60, by: 'account' } as const;
/** And at most 100 changes a second across all accounts (API Gateway, before Lambda). */
const throttle = { rate: 100, burst: 200 } as const;

export const addReaction = contract({
  operationId: 'addReaction',
  method: 'POST',
  path: '/v3/reactions',
  handler: 'reactions/add-reaction',
  dynamo: { actions: ['PutItem', 'UpdateItem'] },
  rateLimit,
  throttle,
  auth: 'required',
  envelope,
  tag,
  summary: 'Add an emoji reaction to content (idempotent)',
  description: 'Add an emoji reaction to content (idempotent)',
  request: { body: reactionBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
    201: { description: 'Created', data: z.unknown() },
  },
});

export const removeReaction = contract({
  operationId: 'removeReaction',
  method: 'DELETE',
  path: '/v3/reactions',
  handler: 'reactions/remove-reaction',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'UpdateItem'] },
  rateLimit,
  throttle,
  auth: 'required',
  envelope,
  tag,
  summary: "Remove the caller's emoji reaction (204)",
  description: "Remove the caller's emoji reaction (204)",
  request: { body: reactionBody },
  responses: {
    204: { description: 'Done, no body' },
  },
});

export const getReactionSummary = contract({
  operationId: 'getReactionSummary',
  method: 'GET',
  path: '/v3/reactions/summary/{targetType}/{targetId}',
  handler: 'reactions/get-reaction-summary',
  dynamo: { actions: ['Query'] },
  auth: 'required',
  envelope,
  tag,
  summary: 'Reaction counts per emoji for a target',
  description: 'Reaction counts per emoji for a target',
  request: { path: reactionSummaryPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const reactionContracts = [addReaction, removeReaction, getReactionSummary] as const;
