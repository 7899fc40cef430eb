import { contract } from '../../shared/http/contract.ts';
import {
  MAX_EMOJI_PER_TARGET,
  reactionBody,
  reactionResponses,
  reactionSummaryPath,
  TOO_MANY_EMOJI,
} from '../../shared/reactions/schemas.ts';

const tag = 'Reactions';
const envelope = 'reactions';
/** Reacting is cheap to abuse: 60 changes a minute per account. */
const rateLimit = { limit: 60, windowSeconds: 60, by: 'account' } as const;
/** And at most 100 changes a second across all accounts (API Gateway, before Lambda). */
const throttle = { rate: 100, burst: 200 } as const;

// An IIFE: the description's template (its `${}` calls toString) would keep the contract in every
// bundle of this module (test/infra/bundle-responses.test.ts).
export const addReaction = /* @__PURE__ */ (() =>
  contract({
    operationId: 'addReaction',
    method: 'POST',
    path: '/v3/reactions',
    handler: 'reactions/add-reaction',
    dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'Query'], indexes: ['GSI3'] },
    rateLimit,
    throttle,
    auth: 'required',
    envelope,
    tag,
    summary: 'Add an emoji reaction to content (idempotent)',
    description: `Puts the caller's emoji reaction on a piece of content (a video, post, comment or series), at most ${MAX_EMOJI_PER_TARGET} different emoji per caller and content (409 past it). Idempotent: 201 when the reaction is new, 200 when the caller already had it (counts unchanged). A \`VIDEO\` (an episode id) or \`SERIES\` (a show id) that does not exist is a 404, as for reports; \`POST\` and \`COMMENT\` targets are not stored by this service, so any id of theirs is accepted.`,
    request: { body: reactionBody },
    responses: () => ({
      200: {
        description: 'The caller already had this reaction: nothing changed',
        data: reactionResponses().Reaction,
      },
      201: { description: 'The reaction was added', data: reactionResponses().Reaction },
      404: { description: 'A `VIDEO` or `SERIES` target that does not exist', message: 'Video not found' },
      409: {
        description: `The caller already has ${MAX_EMOJI_PER_TARGET} different emoji on this content: remove one first`,
        message: TOO_MANY_EMOJI,
      },
    }),
  }))();

export const removeReaction = /* @__PURE__ */ contract({
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
  description:
    "Removes the caller's own emoji reaction from a piece of content (never another account's). Idempotent: removing a reaction the caller does not have also answers 204.",
  request: { body: reactionBody },
  responses: () => ({
    204: { description: 'The reaction is gone (or was never there); no body' },
  }),
});

export const getReactionSummary = /* @__PURE__ */ contract({
  operationId: 'getReactionSummary',
  method: 'GET',
  path: '/v3/reactions/summary/{targetType}/{targetId}',
  handler: 'reactions/get-reaction-summary',
  dynamo: { actions: ['Query'] },
  auth: 'required',
  envelope,
  tag,
  summary: 'Reaction counts per emoji for a target',
  description:
    'Reaction counts per emoji on a piece of content, most used first, their total, and the emojis the caller put on it. Counts are summed over sharded counters, so they are exact but a reaction made a moment ago may take a moment to show.',
  request: { path: reactionSummaryPath },
  responses: () => ({
    200: {
      description: "The counts and the caller's own reactions",
      data: reactionResponses().ReactionSummary,
    },
  }),
});

export const reactionContracts = [addReaction, removeReaction, getReactionSummary] as const;
