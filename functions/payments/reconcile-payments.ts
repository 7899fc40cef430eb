import { MetricUnit, metrics } from '../../shared/observability/index.ts';
import { worker } from '../../shared/platform/worker.ts';
import { type ReconcileReport, reconcile } from '../../shared/payments/reconcile.ts';
import { syncContext } from '../../shared/payments/stripe-webhook.ts';
import { reconcileRow } from './workers.ts';

/** The daily payments reconcile (infra/payments.ts): `PaymentRepairs` is alarmed on. */
export const handler = worker(
  reconcileRow,
  async (): Promise<ReconcileReport> => {
    const report = await reconcile(await syncContext(), { eventDays: 3 });
    metrics.addMetric('PaymentRepairs', MetricUnit.Count, report.repaired);
    return report;
  },
  (report) => ({ message: 'payments reconciled', fields: { ...report } }),
);
