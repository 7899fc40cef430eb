-- Startup time: session start to its first `playing` event, in milliseconds, median and 95th percentile over the sessions that started playing, in the bucket of the start. A session whose first `playing` is dated before its start (a client clock behind the server's receive time) is left out, not counted as a negative startup.
-- label: Startup time
-- unit: ms
-- chart: startup_ms_median
SELECT bucket_ms, dimension, count(*) AS sessions_started_playing,
  {{p50(startup_ms)}} AS startup_ms_median,
  {{p95(startup_ms)}} AS startup_ms_p95
FROM (
  SELECT session_id,
    min(CASE WHEN type = 'start' THEN bucket_ms END) AS bucket_ms,
    min(dimension) AS dimension,
    min(CASE WHEN type = 'playing' THEN client_ts_ms END) - min(CASE WHEN type = 'start' THEN client_ts_ms END) AS startup_ms
  FROM {{events}} x
  WHERE type IN ('start', 'playing')
  GROUP BY session_id
) t
WHERE startup_ms >= 0
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
