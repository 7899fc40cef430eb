import { MetricUnit, metrics } from '../../shared/observability/index.ts';
import { type ReconcileReport, reconcile } from '../../shared/payments/reconcile.ts';
import { syncContext } from '../../shared/payments/stripe-webhook.ts';

/** The daily payments reconcile (infra/payments.ts): `PaymentRepairs` is alarmed on. */
export const handler = async (): Promise<ReconcileReport> => {
  const report = await reconcile(await syncContext(), { eventDays: 3 });
  metrics.addMetric('PaymentRepairs', MetricUnit.Count, report.repaired);
  metrics.publishStoredMetrics();
  console.log(JSON.stringify({ level: 'INFO', message: 'payments reconciled', ...report }));
  return report;
};
