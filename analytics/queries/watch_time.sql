-- Watch time: per session, first to last client timestamp (start to end or last heartbeat), summed in the bucket of the session's first event; on-demand and live together, with the sessions counted in all and apart (vod_sessions, live_sessions).
-- label: Watch time
-- unit: seconds
-- chart: watch_time_seconds
-- gaps: zero
SELECT bucket_ms, dimension, sum(span_ms) / 1000.0 AS watch_time_seconds, count(*) AS sessions,
  count(CASE WHEN family = 'video' THEN 1 END) AS vod_sessions,
  count(CASE WHEN family = 'live' THEN 1 END) AS live_sessions
FROM (
  SELECT session_id, min(family) AS family, min(bucket_ms) AS bucket_ms, min(dimension) AS dimension, max(client_ts_ms) - min(client_ts_ms) AS span_ms
  FROM {{events}} x
  GROUP BY session_id
) s
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
