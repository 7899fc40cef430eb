import { NOT_A_CREATOR_YET } from '../../shared/creators/messages.ts';
import type { Contract } from '../../shared/http/contract.ts';
import { contract } from '../../shared/http/contract.ts';
import {
  createProgramBody,
  programPath,
  updateProfileBody,
  updateProgramBody,
  scheduleResponses,
} from '../../shared/studio/schedule-schemas.ts';

/**
 * The creator studio's profile and channel programs (issue 16). Every operation acts on the
 * caller's own creator (creator id = account id; 403 until onboarding made the account one,
 * shared/creators/studio-creator.ts) and its one channel.
 */

const tag = 'Studio';
/** Studio edits are a person at a form: 60 a minute per account is far above honest use. */
const rateLimit = { limit: 60, windowSeconds: 60, by: 'account' } as const;
/** And at most 20 a second per route across all accounts (API Gateway, before Lambda). */
const throttle = { rate: 20, burst: 40 } as const;

const notCreator = {
  description: 'The account has not finished onboarding: it is no creator yet',
  message: NOT_A_CREATOR_YET,
};
const programNotFound = {
  description:
    "No program with this id on the caller's channel (another channel's programs are not found either)",
  message: 'Program not found',
};
const overlap = {
  description:
    "The program's [start, end) overlaps another program of the channel (adjacent programs, one ending when the next starts, are fine)",
  message: 'This program overlaps another program of the channel',
};

const OVERLAP_DESIGN =
  "Race-free: the write reads the channel's schedule lock (a per-channel item with a version) and the overlapping programs (strongly consistent), then writes the program and the lock's next version in one DynamoDB transaction conditioned on the version it read; a write that committed in between cancels it and it starts again, now seeing that program. Of concurrent overlapping writes exactly one succeeds, the others answer 409. A contention that outlasts a few retries answers 503 (retry).";

export const updateStudioProfile = /* @__PURE__ */ contract({
  operationId: 'updateStudioProfile',
  tag,
  method: 'PATCH',
  path: '/studio/profile',
  handler: 'studio/update-profile',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: "Edit the caller's creator profile (name, description, avatar, category)",
  description:
    "Changes any of the caller's public profile fields: `creator_name` (the display name; the initials follow it), `description`, `avatar_url` (https, or null to remove it) and `category`. An empty body is a 422. Tier and the editorial flags are an operator's, not a creator's. Answers the profile after the change; its `version` goes up by one with every change.",
  request: { body: updateProfileBody },
  responses: () => ({
    200: { description: 'The profile after the change', data: scheduleResponses().StudioProfile },
    403: notCreator,
  }),
});

export const createStudioProgram = /* @__PURE__ */ (() =>
  contract({
    operationId: 'createStudioProgram',
    tag,
    method: 'POST',
    path: '/studio/channel/programs',
    handler: 'studio/create-program',
    dynamo: { actions: ['GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
    auth: 'required',
    rateLimit,
    throttle,
    summary: "Add a program to the caller's channel schedule (409 on overlap)",
    description: `Schedules a program on the caller's channel: \`title\`, \`rating\`, \`start_time\` (ISO 8601 with a UTC offset, on a whole minute) and either \`end_time\` or \`duration_minutes\` (exactly one); a program ends after it starts and lasts at most 12 hours. Optionally what it broadcasts: \`content_type\` \`show\` or \`episode\` with \`content_id\`, one of the caller's own (another creator's or an unknown id is a 422 on \`content_id\`); without them the program has no catalogue content (\`content_type\`/\`content_id\` null here; the EPG shows it as a show whose id is the program id). It appears in the channel's EPG at once. ${OVERLAP_DESIGN}`,
    request: { body: createProgramBody },
    responses: () => ({
      201: { description: 'The program as stored (times in UTC)', data: scheduleResponses().StudioProgram },
      403: notCreator,
      409: overlap,
    }),
  }))();

export const updateStudioProgram = /* @__PURE__ */ (() =>
  contract({
    operationId: 'updateStudioProgram',
    tag,
    method: 'PATCH',
    path: '/studio/channel/programs/{program_id}',
    handler: 'studio/update-program',
    dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
    auth: 'required',
    rateLimit,
    throttle,
    summary: "Change a program of the caller's channel (409 if new times overlap)",
    description: `Changes any field of one of the caller's programs (an empty body is a 422). \`start_time\` alone moves the program and keeps its length; \`end_time\` or \`duration_minutes\` sets its end. New times are checked against the channel's other programs (the program itself excluded). \`content_type\` and \`content_id\` both null remove its content. ${OVERLAP_DESIGN} Its \`version\` goes up by one.`,
    request: { path: programPath, body: updateProgramBody },
    responses: () => ({
      200: { description: 'The program after the change', data: scheduleResponses().StudioProgram },
      403: notCreator,
      404: programNotFound,
      409: overlap,
    }),
  }))();

export const deleteStudioProgram = /* @__PURE__ */ contract({
  operationId: 'deleteStudioProgram',
  tag,
  method: 'DELETE',
  path: '/studio/channel/programs/{program_id}',
  handler: 'studio/delete-program',
  dynamo: { actions: ['DeleteItem', 'GetItem'], indexes: ['GSI3'] },
  auth: 'required',
  rateLimit,
  throttle,
  summary: "Remove a program from the caller's channel schedule",
  description:
    "Removes one of the caller's programs from the channel schedule (and so from the EPG). Another channel's program, or one already removed, is a 404.",
  request: { path: programPath },
  responses: () => ({
    204: { description: 'The program was removed' },
    403: notCreator,
    404: programNotFound,
  }),
});

export const studioScheduleContracts: readonly Contract[] = [
  updateStudioProfile,
  createStudioProgram,
  updateStudioProgram,
  deleteStudioProgram,
];
