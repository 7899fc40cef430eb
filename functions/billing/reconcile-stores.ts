import { MetricUnit, metrics } from '../../shared/observability/index.ts';
import { worker } from '../../shared/platform/worker.ts';
import { reconcileStores, type StoreReconcileReport } from '../../shared/stores/reconcile.ts';
import { storeReconcileRow } from '../payments/workers.ts';

/**
 * The app-store reconcile (infra/payments.ts, every 6 hours): `StoreDrift` and
 * `StoreCheckErrors` are alarmed on (docs/payments.md, "Failure figures").
 */
export const handler = worker(
  storeReconcileRow,
  async (): Promise<StoreReconcileReport> => {
    const report = await reconcileStores(new Date());
    metrics.addMetric('StoreChecked', MetricUnit.Count, report.checked);
    metrics.addMetric('StoreDrift', MetricUnit.Count, report.corrected);
    metrics.addMetric('StoreCheckErrors', MetricUnit.Count, report.errors);
    return report;
  },
  (report) => ({
    level: report.errors > 0 ? 'warn' : 'info',
    message: 'stores reconciled',
    fields: { ...report },
  }),
);
