import { NOT_A_CREATOR_YET } from '../../shared/creators/messages.ts';
import type { Contract } from '../../shared/http/contract.ts';
import { contract } from '../../shared/http/contract.ts';
import {
  createEpisodeBody,
  createShowBody,
  studioEpisodePath,
  studioShowPath,
  updateEpisodeBody,
  updateShowBody,
  studioResponses,
} from '../../shared/studio/schemas.ts';

const tag = 'Studio';
/** Publishing is a deliberate act: 60 writes an hour per account and endpoint is plenty for honest use. */
const rateLimit = { limit: 60, windowSeconds: 3600, by: 'account' } as const;
/** And at most 10 a second across all accounts (API Gateway, before Lambda). */
const throttle = { rate: 10, burst: 20 } as const;

const noCreator = {
  description: 'The account has not finished onboarding (no creator yet), so it cannot publish',
  message: NOT_A_CREATOR_YET,
};
const showNotFound = {
  description:
    "No show with this id is the caller's (another creator's show answers the same, so others' shows are not revealed)",
  message: 'Show not found',
};
const episodeNotFound = {
  description:
    "No show with this id is the caller's (`Show not found`), or the episode is not one of this show's",
  message: 'Episode not found',
};
const showChanged =
  'Rarely, another request changed the same show at the same moment several times over: `The show was changed by another request meanwhile, retry`';

export const createStudioShow = /* @__PURE__ */ contract({
  operationId: 'createStudioShow',
  tag,
  method: 'POST',
  path: '/studio/shows',
  handler: 'studio/create-show',
  dynamo: { actions: ['GetItem', 'PutItem'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: 'Publish a new show of the caller (a creator)',
  description:
    "Creates a show of the caller's creator: title, description, category and rating, optionally tags and a poster URL. The platform sets the rest: `is_new` true, `is_featured` false (editorial flags are operators', a body cannot set them), no views, released now, starring the creator, no seasons until episodes are added. The id is `sh_` and 12 hex digits; the slug is the slugified title, `_` and the first 6 hex digits of the id, and it never changes (a title edit keeps it, so the show's URLs keep working). The show is at once readable at `GET /shows/{id}`; lists and search include it shortly after. 403 until the account's onboarding made it a creator.",
  request: { body: createShowBody },
  responses: () => ({
    201: { description: 'The show as stored (version 1)', data: studioResponses().StudioShow },
    403: noCreator,
  }),
});

export const updateStudioShow = /* @__PURE__ */ contract({
  operationId: 'updateStudioShow',
  tag,
  method: 'PATCH',
  path: '/studio/shows/{id}',
  handler: 'studio/update-show',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: "Edit one of the caller's shows",
  description:
    "Changes the fields given (at least one: an empty body is a 422) of one of the caller's shows and answers the show with its version one higher. The slug and the show's URLs stay as they were. A show of another creator, or none, is a 404.",
  request: { path: studioShowPath, body: updateShowBody },
  responses: () => ({
    200: { description: 'The show as now stored', data: studioResponses().StudioShow },
    403: noCreator,
    404: showNotFound,
  }),
});

export const deleteStudioShow = /* @__PURE__ */ contract({
  operationId: 'deleteStudioShow',
  tag,
  method: 'DELETE',
  path: '/studio/shows/{id}',
  handler: 'studio/delete-show',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'Query'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: "Delete one of the caller's shows with all its episodes",
  description:
    "Removes one of the caller's shows and every episode of it; `GET /shows/{id}` answers 404 at once, lists and search drop it shortly after. A show of another creator, or none, is a 404.",
  request: { path: studioShowPath },
  responses: () => ({
    204: { description: 'The show and its episodes are deleted' },
    403: noCreator,
    404: showNotFound,
    409: { description: showChanged, message: 'The show was changed by another request meanwhile, retry' },
  }),
});

export const createStudioEpisode = /* @__PURE__ */ contract({
  operationId: 'createStudioEpisode',
  tag,
  method: 'POST',
  path: '/studio/shows/{id}/episodes',
  handler: 'studio/create-episode',
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: "Add an episode to one of the caller's shows",
  description:
    "Adds an episode to one of the caller's shows: season (1-99), episode number (1-999), title, length and `is_free` (`false`: access `premium`, for the creator's subscribers; or `access: \"ppv\"` with `price` and `currency`: bought one by one through POST /checkout), optionally a description, the air date (default now) and the stream URL (default the CDN playlist path of the episode). The show's `seasons` gain the season in the same write, and its version goes up by one; the episode's version is the show's new version (episode versions come from their show's, so an episode created where another was deleted is always newer than it). One episode per season and number: a taken place is a 409.",
  request: { path: studioShowPath, body: createEpisodeBody },
  responses: () => ({
    201: {
      description: "The episode as stored (its version: the show's new version)",
      data: studioResponses().StudioEpisode,
    },
    403: noCreator,
    404: showNotFound,
    409: {
      description: `The show already has an episode with this season and episode number. ${showChanged}`,
      message: 'This show already has an episode with this season and episode number',
    },
  }),
});

export const updateStudioEpisode = /* @__PURE__ */ contract({
  operationId: 'updateStudioEpisode',
  tag,
  method: 'PATCH',
  path: '/studio/shows/{id}/episodes/{episode_id}',
  handler: 'studio/update-episode',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: "Edit an episode of one of the caller's shows",
  description:
    "Changes the fields given (at least one) of an episode of one of the caller's shows and answers it with its new version (the show's, which goes up by one in the same write). A new season or episode number moves it (409 when that place is taken), and the show's `seasons` follow in the same write. 404 `Show not found` for a show that is not the caller's, `Episode not found` for an episode that is not this show's.",
  request: { path: studioEpisodePath, body: updateEpisodeBody },
  responses: () => ({
    200: { description: 'The episode as now stored', data: studioResponses().StudioEpisode },
    403: noCreator,
    404: episodeNotFound,
    409: {
      description: `The new season and episode number are another episode's. ${showChanged}`,
      message: 'This show already has an episode with this season and episode number',
    },
  }),
});

export const deleteStudioEpisode = /* @__PURE__ */ contract({
  operationId: 'deleteStudioEpisode',
  tag,
  method: 'DELETE',
  path: '/studio/shows/{id}/episodes/{episode_id}',
  handler: 'studio/delete-episode',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: "Delete an episode of one of the caller's shows",
  description:
    "Removes an episode of one of the caller's shows; the show's `seasons` drop its season in the same write when it was the season's last episode, and the show's version goes up by one. 404 `Show not found` for a show that is not the caller's, `Episode not found` for an episode that is not this show's.",
  request: { path: studioEpisodePath },
  responses: () => ({
    204: { description: 'The episode is deleted' },
    403: noCreator,
    404: episodeNotFound,
    409: { description: showChanged, message: 'The show was changed by another request meanwhile, retry' },
  }),
});

/** The creator studio's shows and episodes (issue 16). */
export const studioContracts: readonly Contract[] = [
  createStudioShow,
  updateStudioShow,
  deleteStudioShow,
  createStudioEpisode,
  updateStudioEpisode,
  deleteStudioEpisode,
];
