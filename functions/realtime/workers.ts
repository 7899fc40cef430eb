import type { WorkerRow } from '../../shared/routing/function-row.ts';

/**
 * The realtime functions no HTTP route invokes (infra/realtime.ts, docs/realtime.md), described by
 * route-row fields so their grants and environment come from the same derivation as every
 * function's (shared/platform/access.ts).
 */

/**
 * The aggregator's ticks: EventBridge Scheduler invokes it every minute with `{ ticks: 12 }`, and
 * it publishes one tick every 5 s of that minute (shared/realtime/tick.ts).
 */
export const realtimeTickRow = {
  trigger: '$schedule/realtime-ticks',
  handler: 'realtime/publish-ticks',
  timeout: {
    seconds: 75,
    reason: "12 ticks of 5 s (infra/realtime.ts TICKS_PER_RUN), and the last tick's work",
  },
  // Query: the live list, a channel's programs. BatchGetItem: the live creators, viewer counters
  // and peaks, reaction counters. UpdateItem: a peak raised (the viewers endpoint's rule).
  dynamo: { actions: ['Query', 'BatchGetItem', 'UpdateItem'] },
  needs: ['realtime-publisher'],
  summary: 'Realtime ticks: live state pushed to the Event API every 5 s (docs/realtime.md)',
} as const satisfies WorkerRow;

/**
 * The Event API's Lambda authoriser (connect and subscribe on the `live` namespace): admits the
 * short-lived realtime tokens `GET .../live/realtime` issues, each for its channels only.
 */
export const realtimeAuthorizerRow = {
  trigger: '$appsync/authorize',
  handler: 'realtime/authorize-subscriber',
  timeout: { seconds: 3, reason: 'AppSync waits for the answer while the subscriber connects' },
  needs: ['token-verifier'],
  summary: 'Realtime authoriser: the Event API admits subscribers with our realtime tokens',
} as const satisfies WorkerRow;

export const realtimeWorkers: readonly WorkerRow[] = [realtimeTickRow, realtimeAuthorizerRow];
