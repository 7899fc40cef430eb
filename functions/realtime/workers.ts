import type { RouteRow } from '../../shared/routing/route.ts';

/**
 * The realtime functions no HTTP route invokes (infra/realtime.ts, docs/realtime.md), described by
 * route-row fields so their grants and environment come from the same derivation as every
 * function's (shared/platform/access.ts). Their `path` names the trigger.
 */

/**
 * The aggregator's ticks: EventBridge Scheduler invokes it every minute with `{ ticks: 12 }`, and
 * it publishes one tick every 5 s of that minute (shared/realtime/tick.ts).
 */
export const realtimeTickRow = {
  method: 'POST',
  path: '$schedule/realtime-ticks',
  handler: 'realtime/publish-ticks',
  auth: 'none',
  // Query: the live list, a channel's programs. BatchGetItem: the live creators, viewer counters
  // and peaks, reaction counters. UpdateItem: a peak raised (the viewers endpoint's rule).
  dynamo: { actions: ['Query', 'BatchGetItem', 'UpdateItem'] },
  needs: ['realtime-publisher'],
  summary: 'Realtime ticks: live state pushed to the Event API every 5 s (docs/realtime.md)',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * The Event API's Lambda authoriser (connect and subscribe on the `live` namespace): admits the
 * short-lived realtime tokens `GET .../live/realtime` issues, each for its channels only.
 */
export const realtimeAuthorizerRow = {
  method: 'POST',
  path: '$appsync/authorize',
  handler: 'realtime/authorize-subscriber',
  auth: 'none',
  needs: ['token-verifier'],
  summary: 'Realtime authoriser: the Event API admits subscribers with our realtime tokens',
  tag: 'Workers',
} as const satisfies RouteRow;

export const realtimeWorkers: readonly RouteRow[] = [realtimeTickRow, realtimeAuthorizerRow];
