import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { perContainer } from '../aws/local-hook.ts';

/**
 * Observability with Powertools for AWS Lambda, created once per container and wired once in the
 * middleware chain (shared/http/handler.ts): one structured JSON log line per request (request
 * id, route, status, latency; never bodies, tokens, passwords or emails), metrics in CloudWatch
 * embedded metric format (requests and errors, errors also by code, automatically; domain counters
 * via `recordMetric`).
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
) => {
  container().domainMetric = true;
  metrics.addMetric(name, unit, value);
};

/** A DomainError code (`VALIDATION_ERROR`, `RATE_LIMITED`…): upper-case words, nothing a caller sent. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,39}$/;

/**
 * The `errorCode` dimension of a failed request: its DomainError code, or `HTTP_<status>` when there
 * is none or it does not look like one, so a dimension value can never carry request data and the
 * dimension's values stay the small fixed set of codes in shared/errors/errors.ts.
 */
export const errorCodeDimension = (status: number, errorCode?: string): string =>
  errorCode !== undefined && ERROR_CODE.test(errorCode) ? errorCode : `HTTP_${status}`;

/**
 * Successful requests this container has finished, and whether the current request recorded a
 * domain metric (`recordMetric`), for the routes that sample their success lines (`successLog`).
 */
const container = /* @__PURE__ */ perContainer(() => ({ successes: 0, domainMetric: false }));

/** 1, or the route's SUCCESS_LOG_EVERY: one successful request in that many is logged. */
const successLogEvery = () => {
  const every = Number(process.env.SUCCESS_LOG_EVERY ?? 1);
  return Number.isInteger(every) && every > 1 ? every : 1;
};

/**
 * One log line and the metrics for a finished request. Every request adds `requests`; a 4xx/5xx
 * adds `errors` twice: once in the request's metrics (dimension `service` only: the total) and once
 * as its own EMF record with the dimensions `service` and `errorCode` (errors by code). Nothing
 * from the request (body, token, ids) becomes a dimension.
 */
export const recordRequest = (entry: {
  requestId: string;
  route: string;
  status: number;
  latencyMs: number;
  accountId?: string;
  errorCode?: string;
}) => {
  const failed = entry.status >= 400;
  const errorCode = failed ? errorCodeDimension(entry.status, entry.errorCode) : undefined;
  const level = entry.status >= 500 ? 'error' : failed ? 'warn' : 'info';
  const state = container();
  const sampled = failed || state.successes++ % successLogEvery() === 0;
  if (sampled)
    logger[level]('request', { ...entry, errorCode, latencyMs: Math.round(entry.latencyMs * 10) / 10 });
  if (errorCode) {
    recordMetric('errors');
    metrics.singleMetric().addDimension('errorCode', errorCode).addMetric('errors', MetricUnit.Count, 1);
  }
  metrics.addMetric('requests', MetricUnit.Count, 1);
  // A sampled route's plain successes add to `requests` in the container and are published with
  // its next logged or failed request, or one with a domain metric: one EMF record per `every`
  // requests (values summed by CloudWatch) instead of one each. A container reaped in between
  // loses up to `every` - 1 of them; Lambda's own Invocations metric counts every one.
  if (sampled || state.domainMetric) metrics.publishStoredMetrics();
  state.domainMetric = false;
};
