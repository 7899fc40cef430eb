-- Watch time: per session, first to last client timestamp (start to end/last heartbeat), summed; seconds.
SELECT family, sum(span_ms) / 1000.0 AS watch_time_seconds, count(*) AS sessions
FROM (
  SELECT family, session_id, max(client_ts_ms) - min(client_ts_ms) AS span_ms
  FROM events
  GROUP BY family, session_id
) s
GROUP BY family
ORDER BY family
