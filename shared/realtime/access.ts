import type { FunctionRow } from '../routing/function-row.ts';

/**
 * What the realtime capabilities of a route row grant and set (called by shared/platform/access.ts,
 * so the stack and the local platform derive them the same way; docs/realtime.md):
 * - `realtime-publisher`: `appsync:EventPublish` on the Event API's `live` namespace (the only
 *   publisher is the back end, with IAM); its HTTP endpoint in REALTIME_HTTP_URL.
 * - `realtime-endpoint`: no grant; the API's real-time (WebSocket) endpoint in REALTIME_WS_URL, which
 *   `GET /creators/{id}/channel/live/realtime` hands to subscribers.
 */
export interface RealtimeDeployment {
  /** `arn:aws:appsync:<region>:<account>:apis/<api id>`. */
  apiArn: string;
  /** `https://<id>.appsync-api.<region>.amazonaws.com` (locally the stand-in's). */
  httpUrl: string;
  /** `wss://<id>.appsync-realtime-api.<region>.amazonaws.com/event/realtime`. */
  realtimeUrl: string;
}

/** The one channel namespace (infra/realtime.ts). */
export const LIVE_NAMESPACE = 'live';

const NEEDS = ['realtime-publisher', 'realtime-endpoint'] as const;

const needed = (row: FunctionRow, r: RealtimeDeployment | undefined): RealtimeDeployment | undefined => {
  const uses = NEEDS.some((need) => row.needs?.includes(need));
  if (uses && !r)
    throw new Error(
      `Function ${row.handler} needs the Event API but the deployment has none (infra/realtime.ts)`,
    );
  return uses ? r : undefined;
};

export const realtimeStatements = (row: FunctionRow, deployment: RealtimeDeployment | undefined) => {
  const r = needed(row, deployment);
  if (!r || !row.needs?.includes('realtime-publisher')) return [];
  return [
    { actions: ['appsync:EventPublish'], resources: [`${r.apiArn}/channelNamespace/${LIVE_NAMESPACE}`] },
  ];
};

export const realtimeEnvironment = (
  row: FunctionRow,
  deployment: RealtimeDeployment | undefined,
): Record<string, string> => {
  const r = needed(row, deployment);
  if (!r) return {};
  return {
    ...(row.needs?.includes('realtime-publisher') ? { REALTIME_HTTP_URL: r.httpUrl } : {}),
    ...(row.needs?.includes('realtime-endpoint') ? { REALTIME_WS_URL: r.realtimeUrl } : {}),
  };
};

/** Placeholders for `settingsOf` (names only). */
export const REALTIME_PLACEHOLDERS: RealtimeDeployment = { apiArn: 'x', httpUrl: 'x', realtimeUrl: 'x' };
