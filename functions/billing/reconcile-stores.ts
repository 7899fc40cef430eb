import { MetricUnit, metrics } from '../../shared/observability/index.ts';
import { reconcileStores, type StoreReconcileReport } from '../../shared/stores/reconcile.ts';

/**
 * The app-store reconcile (infra/payments.ts, every 6 hours): `StoreDrift` and
 * `StoreCheckErrors` are alarmed on (docs/payments.md, "Failure figures").
 */
export const handler = async (): Promise<StoreReconcileReport> => {
  const report = await reconcileStores(new Date());
  metrics.addMetric('StoreChecked', MetricUnit.Count, report.checked);
  metrics.addMetric('StoreDrift', MetricUnit.Count, report.corrected);
  metrics.addMetric('StoreCheckErrors', MetricUnit.Count, report.errors);
  metrics.publishStoredMetrics();
  console.log(
    JSON.stringify({ level: report.errors > 0 ? 'WARN' : 'INFO', message: 'stores reconciled', ...report }),
  );
  return report;
};
