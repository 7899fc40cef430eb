-- Live concurrent viewers: per minute (client time), the live sessions with a start or heartbeat in that minute; a bucket longer than a minute shows its busiest minute (the peak). Break down by title for each channel.
-- label: Live concurrent viewers (peak)
-- unit: viewers
-- chart: viewers
-- gaps: zero
SELECT bucket_ms, dimension, max(viewers) AS viewers
FROM (
  SELECT bucket_ms, dimension, floor(client_ts_ms / 60000) AS minute, count(DISTINCT session_id) AS viewers
  FROM {{events}} x
  WHERE family = 'live' AND type IN ('start', 'heartbeat')
  GROUP BY bucket_ms, dimension, floor(client_ts_ms / 60000)
) m
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
