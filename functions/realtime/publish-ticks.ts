import { clock } from '../../shared/clock.ts';
import { metrics, MetricUnit } from '../../shared/observability/index.ts';
import { tickStartMs, tickOf } from '../../shared/realtime/messages.ts';
import { worker } from '../../shared/platform/worker.ts';
import { publishTick, type TickReport } from '../../shared/realtime/tick.ts';
import { realtimeTickRow } from './workers.ts';

/** Waits past the start of a tick so the reactions of the one that ended are all counted. */
const GRACE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `{ ticks }` ticks, each just after a tick boundary (EventBridge Scheduler: `{ ticks: 12 }` every
 * minute; the local platform: `{ ticks: 1 }` every 5 s). Publish failures are counted
 * (`RealtimePublishErrors`, alarmed in infra/realtime.ts), never thrown: the next tick republishes
 * whatever changed.
 */
export const handler = worker(
  realtimeTickRow,
  async (event: { ticks?: number } = {}): Promise<TickReport[]> => {
    const reports: TickReport[] = [];
    const ticks = Math.min(Math.max(Math.trunc(Number(event.ticks ?? 1)), 1), 12);
    for (let i = 0; i < ticks; i++) {
      if (i > 0) await sleep(tickStartMs(tickOf(clock.now()) + 1) + GRACE_MS - Date.now());
      const report = await publishTick(clock.now());
      reports.push(report);
      metrics.addMetric('RealtimeMessages', MetricUnit.Count, report.messages);
      metrics.addMetric('RealtimePublishErrors', MetricUnit.Count, report.failures);
      // Each tick's figures as it ends (a run lasts a minute), not all at the end.
      metrics.publishStoredMetrics();
    }
    return reports;
  },
);
