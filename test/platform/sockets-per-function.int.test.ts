import { describe, expect, it } from 'vitest';
import { realtimeTickRow } from '../../functions/realtime/workers.ts';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { getStoredCreators } from '../../shared/creators/creator-repository.ts';
import { callsOf, testApi } from '../support/api.ts';

/**
 * Each function sends its AWS calls through sockets of its own, as each Lambda container does
 * (scripts/local/aws.ts `socketsPerFunction`). Under `npm start -- --scale 10` the realtime tick
 * queued ~1,500 table reads every 5 s on the one client every function of the process shares, and
 * a route's calls waited behind them: a warm `GET /creators` took up to 18 s.
 */
describe('the local platform: sockets per function', () => {
  it("a route's table calls do not wait behind another function's queue", async () => {
    const api = await testApi();
    await api.get('/creators/cr_0002'); // its module loaded: what follows times only its calls
    const reads = 1_500;
    let done = 0;
    // The realtime tick's function (its policy reads creators), queueing far more than 50 sockets take.
    const flood = runAsFunction(functionContext(realtimeTickRow), () =>
      Promise.all(
        Array.from({ length: reads }, () =>
          getStoredCreators(['cr_0001']).then(() => {
            done++;
          }),
        ),
      ),
    );
    const answer = await api.get('/creators/cr_0002');
    const doneWhenAnswered = done;
    await flood;
    expect(answer.status).toBe(200);
    expect(callsOf(answer.headers.get('apigw-requestid')).length).toBeGreaterThan(0);
    // Behind the queue it was answered once nearly all of it was done (FIFO over 50 sockets).
    expect(doneWhenAnswered).toBeLessThan(reads / 2);
  });
});
