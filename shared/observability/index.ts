import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Observability with Powertools for AWS Lambda, created once per container and wired once in the
 * middleware chain (shared/http/handler.ts): one structured JSON log line per request (request
 * id, route, status, latency; never bodies, tokens, passwords or emails), metrics in CloudWatch
 * embedded metric format (errors by code automatically; domain counters via `recordMetric`).
 * Tracing is Lambda's active X-Ray tracing (set by the stack); the Tracer SDK is not loaded, to
 * keep cold starts near the floor.
 */
const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? 'creator-streaming';
const onLambda = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

export const logger = new Logger({
  serviceName,
  logLevel: (process.env.LOG_LEVEL ?? (process.env.VITEST ? 'SILENT' : 'INFO')) as 'INFO',
});

// Metrics are emitted on Lambda (EMF on stdout → CloudWatch); locally they would only add noise.
if (!onLambda) process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'CreatorStreaming',
  serviceName,
});

export { MetricUnit };

/** Counts a domain event (sessions opened, sign-ups, reactions…) in this request's metrics. */
export const recordMetric = (
  name: string,
  value = 1,
  unit: (typeof MetricUnit)[keyof typeof MetricUnit] = MetricUnit.Count,
) => metrics.addMetric(name, unit, value);

/** One log line and the status metrics for a finished request; publishes the request's metrics. */
export const recordRequest = (entry: {
  requestId: string;
  route: string;
  status: number;
  latencyMs: number;
  accountId?: string;
  errorCode?: string;
}) => {
  const level = entry.status >= 500 ? 'error' : entry.status >= 400 ? 'warn' : 'info';
  logger[level]('request', { ...entry, latencyMs: Math.round(entry.latencyMs * 10) / 10 });
  if (entry.status >= 400) recordMetric(`errors_${entry.errorCode ?? entry.status}`);
  recordMetric('requests');
  metrics.publishStoredMetrics();
};
