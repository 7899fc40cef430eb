import { clock } from '../../shared/clock.ts';
import { worker } from '../../shared/platform/worker.ts';
import { type RecomputeReport, recomputeWindows } from '../../shared/projection/windows.ts';
import { recomputeRow } from '../workers.ts';

/** The hourly recompute (EventBridge Scheduler, infra/projector.ts): moves the time windows on. */
export const handler = worker(
  recomputeRow,
  (): Promise<RecomputeReport> => recomputeWindows(clock.now()),
  (report) => ({ message: 'windows recomputed', fields: { ...report } }),
);
