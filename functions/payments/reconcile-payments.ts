import { MetricUnit, metrics } from '../../shared/observability/index.ts';
import { worker } from '../../shared/platform/worker.ts';
import { PAYMENT_RECONCILE_DAYS, type ReconcileReport, reconcile } from '../../shared/payments/reconcile.ts';
import { syncContext } from '../../shared/payments/stripe-webhook.ts';
import { reconcileRow } from './workers.ts';

/** The daily payments reconcile (infra/payments.ts): `PaymentRepairs` is alarmed on. */
export const handler = worker(
  reconcileRow,
  async (): Promise<ReconcileReport> => {
    const report = await reconcile(await syncContext(), {
      eventDays: 3,
      // The card networks' usual window for a dispute (docs/payments.md, "Reconcile").
      paymentDays: PAYMENT_RECONCILE_DAYS,
    });
    metrics.addMetric('PaymentRepairs', MetricUnit.Count, report.repaired);
    return report;
  },
  (report) => ({ message: 'payments reconciled', fields: { ...report } }),
);
