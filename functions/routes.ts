/**
 * THE route table: every endpoint's contract (shared/http/contract.ts), the single source for the
 * CDK stack (one Lambda per contract), the local server, the OpenAPI document, the README table
 * and the contract tests. Each domain keeps its contracts beside its handlers
 * (`functions/<domain>/contracts.ts`); adding an endpoint is one contract there plus one handler
 * file, `endpoint(contract, fn)`.
 */
import type { Contract } from '../shared/http/contract.ts';
import { routeKey } from '../shared/routing/route.ts';
import { accountContracts } from './accounts/contracts.ts';
import { secondFactorContracts } from './accounts/mfa-contracts.ts';
import { storeContracts } from './billing/contracts.ts';
import { analyticsContracts } from './analytics/contracts.ts';
import { chatContracts } from './chat/contracts.ts';
import { creatorContracts } from './creators/contracts.ts';
import { epgContracts } from './epg/contracts.ts';
import { homeContracts } from './home/contracts.ts';
import { identityContracts } from './identity/contracts.ts';
import { liveContracts } from './live/contracts.ts';
import { paymentContracts } from './payments/contracts.ts';
import { platformContracts } from './platform/contracts.ts';
import { reactionContracts } from './reactions/contracts.ts';
import { realtimeContracts } from './realtime/contracts.ts';
import { reportContracts } from './reports/contracts.ts';
import { showContracts } from './shows/contracts.ts';
import { studioContracts } from './studio/contracts.ts';
import { studioScheduleContracts } from './studio/schedule-contracts.ts';
import { studioChannelContracts } from './studio/channel-contracts.ts';
import { webhookContracts } from './webhooks/contracts.ts';

export const routes: readonly Contract[] = [
  ...homeContracts,
  ...creatorContracts,
  ...showContracts,
  ...liveContracts,
  ...paymentContracts,
  ...storeContracts,
  ...epgContracts,
  ...identityContracts,
  ...accountContracts,
  ...secondFactorContracts,
  ...reactionContracts,
  ...realtimeContracts,
  ...reportContracts,
  ...studioContracts,
  ...studioScheduleContracts,
  ...studioChannelContracts,
  ...chatContracts,
  ...analyticsContracts,
  ...webhookContracts,
  ...platformContracts,
];

export const routesByKey: ReadonlyMap<string, Contract> = new Map(routes.map((row) => [routeKey(row), row]));

/** What the API document says about the API as a whole. */
export const apiDescription = [
  'The back end of a creator-centred video streaming platform: home, creators, shows, live channels',
  'and watch sessions, the programme guide, onboarding and sign-in, reactions, reports and',
  "playback analytics. This document is generated from the endpoints' contracts and the tests check",
  'every answer against it, status included: generate clients from it (it is served at `/openapi.json`).',
  'Signed-in operations take `Authorization: Bearer <auth_token>` (from sign-up, sign-in or refresh).',
  '',
  'Envelopes (spec 2.1): success is `{status: "success", data, meta_data?}`, errors are',
  '`{status: "error", code, message}` (422: `errors: [{field, message}]`; 429: `reason`). The',
  'reactions operations use `{success, data}` and `{success: false, error, requestId}`. Every',
  'answer carries `x-request-id`. Times are ISO 8601 in UTC unless a `timezone` (an IANA name such',
  'as `Europe/Paris`) is given.',
  '',
  'Large answers: an answer over 1 MiB is sent with `Content-Encoding: gzip` (and `Vary: Accept-Encoding`)',
  "when the request's `Accept-Encoding` accepts gzip. An answer that is over 6 MiB as sent (AWS",
  "Lambda's limit) is a 500 whose message says so, and whether asking with `Accept-Encoding: gzip`",
  'makes it fit: a show with thousands of episodes is such an answer.',
].join('\n');

/** One description per tag, shown as the sections of the reference. */
export const tagDescriptions: Readonly<Record<string, string>> = {
  Home: 'The home screen: hero slides, the personalised rows and the live-now strip.',
  Creators: 'Creator directory: browse, filter and sort, search, featured and live creators, detail pages.',
  Shows: 'The on-demand catalogue: shows, episodes, categories, ratings, new releases and most viewed.',
  Live: "A creator's live channel: status, playback, viewers, watch sessions with heartbeats, follows (subscribing is under Payments).",
  EPG: 'The electronic programme guide: what is on now and next, schedules per channel and for the guide grid.',
  Onboarding: 'Creating a creator account, checking e-mail and handle, and the onboarding steps.',
  Auth: 'Signing in (password or Google), refreshing and ending sessions, verifying e-mail.',
  Accounts:
    "The caller's own account: profile, password recovery and changes, email change, signed-in devices, the step-up that sensitive actions need, exporting everything the platform keeps about it and deleting it (docs/accounts.md).",
  Reactions: 'Emoji reactions on shows and episodes, with per-emoji counts.',
  Reports: 'Reporting content or creators for moderation.',
  Chat: "Live chat beside a channel on Amazon IVS Chat: tokens whose capabilities the server decides, and the creator's and moderators' moderation (docs/chat.md).",
  Studio:
    "A creator's own studio: their public profile, shows and episodes, and their channel's programme schedule. Signed-in creators only, and only their own.",
  Analytics: 'Player analytics ingestion (sessions, heartbeats, events, errors) and continue watching.',
  Payments:
    'Paying: subscriptions to creators and pay-per-view purchases through Stripe Checkout, the customer portal, what the caller holds, the endpoints Stripe calls, and the App Store and Google Play purchases of the apps (docs/payments.md).',
  Webhooks:
    'Signed push deliveries of platform events (Standard Webhooks): subscribe a callback, verify it, receive `creator.live` and the rest (docs/webhooks.md).',
  Platform: 'The API reference itself and the public keys that verify access tokens.',
};
