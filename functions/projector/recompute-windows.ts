import { type RecomputeReport, recomputeWindows } from '../../shared/projection/windows.ts';

/** The hourly recompute (EventBridge Scheduler, infra/projector.ts): moves the time windows on. */
export const handler = async (): Promise<RecomputeReport> => {
  const report = await recomputeWindows(new Date());
  console.log(JSON.stringify({ level: 'INFO', message: 'windows recomputed', ...report }));
  return report;
};
