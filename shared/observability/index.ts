import { perContainer } from '../aws/local-hook.ts';

/**
 * Observability, created once per container and wired once in the middleware chain
 * (shared/http/handler.ts): one structured JSON log line per request (request id, route, status,
 * latency; never bodies, tokens, passwords or emails), metrics in CloudWatch embedded metric format
 * (requests and errors, errors also by code, automatically; domain counters via `recordMetric`).
 * Tracing is Lambda's active X-Ray tracing (set by the stack); no tracer SDK is loaded.
 *
 * The lines are the ones Powertools for AWS Lambda wrote here before issue 41 (same keys, same
 * streams: INFO on stdout, WARN and ERROR on stderr, EMF on stdout), written by these few lines
 * instead: Powertools' Logger and Metrics each built a `Console` at init, and their ~29 KB of
 * modules were compiled and evaluated in every cold start (docs/performance.md, "Lambda-like init,
 * fourth round"; docs/operations.md "Logs").
 */
const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? 'creator-streaming';
const onLambda = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

const LEVELS = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, SILENT: 28 } as const;
type LevelName = keyof typeof LEVELS;
/** Lambda's application log level (its advanced logging controls) first, then LOG_LEVEL. */
const levelSetting = (
  process.env.AWS_LAMBDA_LOG_LEVEL ??
  process.env.LOG_LEVEL ??
  (process.env.VITEST ? 'SILENT' : 'INFO')
).toUpperCase();
const threshold = LEVELS[levelSetting as LevelName] ?? LEVELS.INFO;

/** The X-Ray trace id of the current invocation (Lambda sets it per invocation), as Powertools read it. */
const traceId = (): string | undefined => {
  const header = process.env._X_AMZN_TRACE_ID;
  if (!header) return undefined;
  return header.includes('=') ? /(?:^|;)Root=([^;]*)/.exec(header)?.[1] : header;
};

/** Writes one line to stdout or stderr; a write error (a closed pipe) is ignored, as Node's `Console` ignores it. */
const write = (stream: 'stdout' | 'stderr', line: string) => {
  const out = process[stream];
  if (out.listenerCount('error') === 0) out.on('error', () => {});
  out.write(`${line}\n`);
};

/** `value` for a JSON line: errors as their name, message and stack, bigints as strings. */
const replacer = (_key: string, value: unknown) => {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return typeof value === 'bigint' ? value.toString() : value;
};

const log = (level: Exclude<LevelName, 'SILENT'>, message: string, fields: object[]) => {
  if (LEVELS[level] < threshold) return;
  const base = {
    level,
    message,
    timestamp: new Date().toISOString(),
    service: serviceName,
    xray_trace_id: traceId(),
  };
  const line: Record<string, unknown> = {};
  // The standard keys first and never overwritten by a field (Powertools' reserved keys); empty values left out.
  for (const [key, value] of Object.entries(Object.assign({}, base, ...fields, base)))
    if (value !== undefined && value !== null && value !== '') line[key] = value;
  write(level === 'INFO' ? 'stdout' : 'stderr', JSON.stringify(line, replacer));
};

/**
 * The structured logger: `logger.info('message', { field: value })` writes one JSON line with
 * `level`, `message`, `timestamp`, `service`, `xray_trace_id` and the fields (empty ones left out).
 * Below the level (LOG_LEVEL, `SILENT` under vitest) nothing is written.
 */
export const logger = {
  info: (message: string, ...fields: object[]) => log('INFO', message, fields),
  warn: (message: string, ...fields: object[]) => log('WARN', message, fields),
  error: (message: string, ...fields: object[]) => log('ERROR', message, fields),
};

/** The CloudWatch units the functions publish in. */
export const MetricUnit = { Count: 'Count', Milliseconds: 'Milliseconds' } as const;
type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/** CloudWatch's limits of one EMF record: 100 metrics, 100 values per metric. */
const MAX_METRICS = 100;
const MAX_VALUES = 100;

/**
 * Metrics in CloudWatch embedded metric format (namespace `CreatorStreaming`, dimension `service`):
 * `addMetric` stores a value (a name added again in the same record collects its values),
 * `publishStoredMetrics` writes them as one EMF line on stdout and clears them. Off Lambda (or with
 * POWERTOOLS_METRICS_DISABLED) nothing is written. `singleMetric()` is a record of its own,
 * published at its `addMetric`, with the dimensions added to it.
 */
export class Metrics {
  private stored = new Map<string, { unit: Unit; value: number | number[] }>();
  private dimensions: Record<string, string> = {};
  private readonly namespace: string;
  private readonly service: string;
  private readonly single: boolean;

  constructor(namespace: string, service: string, single = false) {
    this.namespace = namespace;
    this.service = service;
    this.single = single;
  }

  /** Adds `value` to the metric `name`; a single metric is published at once. */
  addMetric(name: string, unit: Unit, value: number): this {
    if (!name || name.length > 255) throw new RangeError(`Metric name "${name}" must have 1-255 characters`);
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not a valid number`);
    if (!this.stored.has(name) && this.stored.size >= MAX_METRICS) this.publishStoredMetrics();
    const existing = this.stored.get(name);
    if (!existing) this.stored.set(name, { unit, value });
    else {
      if (existing.unit !== unit) throw new Error(`Metric "${name}" was added with unit "${existing.unit}"`);
      existing.value = [existing.value, value].flat();
      if (existing.value.length >= MAX_VALUES) this.publishStoredMetrics();
    }
    if (this.single) this.publishStoredMetrics();
    return this;
  }

  /** Adds a dimension to this record (beside `service`). */
  addDimension(name: string, value: string): this {
    this.dimensions[name] = value;
    return this;
  }

  /** A record of its own with this one's namespace and service, published at its `addMetric`. */
  singleMetric(): Metrics {
    return new Metrics(this.namespace, this.service, true);
  }

  hasStoredMetrics(): boolean {
    return this.stored.size > 0;
  }

  /** The EMF record of the stored metrics. */
  serializeMetrics(): Record<string, unknown> {
    const dimensions = { service: this.service, ...this.dimensions };
    return {
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: this.namespace,
            Dimensions: [Object.keys(dimensions)],
            Metrics: [...this.stored].map(([Name, { unit }]) => ({ Name, Unit: unit })),
          },
        ],
      },
      ...dimensions,
      ...Object.fromEntries([...this.stored].map(([name, { value }]) => [name, value])),
    };
  }

  /** Writes the stored metrics as one EMF line (when there are any and metrics are on) and clears them. */
  publishStoredMetrics(): this {
    try {
      if (this.hasStoredMetrics() && !metricsDisabled())
        write('stdout', JSON.stringify(this.serializeMetrics()));
    } finally {
      this.clearMetrics();
      this.clearDimensions();
    }
    return this;
  }

  clearMetrics(): void {
    this.stored.clear();
  }

  clearDimensions(): void {
    this.dimensions = {};
  }
}

// Metrics are emitted on Lambda (EMF on stdout → CloudWatch); locally they would only add noise.
const metricsDisabled = () =>
  /^(1|true|yes|on)$/i.test(process.env.POWERTOOLS_METRICS_DISABLED ?? (onLambda ? 'false' : 'true'));

/** This container's request and domain metrics. */
export const metrics = new Metrics(
  process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'CreatorStreaming',
  serviceName,
);

/** Counts a domain event (sessions opened, sign-ups, reactions…) in this request's metrics. */
export const recordMetric = (name: string, value = 1, unit: Unit = MetricUnit.Count) => {
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
