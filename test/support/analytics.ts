import { clock } from '../../shared/clock.ts';
import type { ApiResponse, RequestOptions } from './api.ts';

/**
 * `count` on-demand analytics sessions of `contentId`, started through `session/start` as if
 * `secondsAgo` seconds ago (the clock moved back while they start), so heartbeats sent now may
 * report up to that much playing time (views count only for sessions the platform started, and
 * only as much playing time as the wall time since the start: shared/analytics/playback-count.ts).
 */
export const startSessionsAgo = async (
  post: (path: string, options: RequestOptions) => Promise<ApiResponse>,
  contentId: string,
  count: number,
  secondsAgo = 120,
  token?: string,
): Promise<string[]> => {
  const realNow = clock.now;
  clock.now = () => new Date(Date.now() - secondsAgo * 1000);
  try {
    const sessions: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await post('/analytics/video/session/start', {
        token,
        body: { content_id: contentId, device_type: 'web' },
      });
      if (res.status !== 201) throw new Error(`session/start: ${res.status} ${JSON.stringify(res.body)}`);
      sessions.push(res.body.data.session_id);
    }
    return sessions;
  } finally {
    clock.now = realNow;
  }
};
