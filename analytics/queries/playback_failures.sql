-- Playback failures: on-demand sessions with a fatal player error, as a percentage of the sessions started, in the bucket of the start.
-- label: Playback failure percentage
-- unit: % of sessions started
-- chart: failure_percentage
SELECT bucket_ms, dimension, count_if(failed) AS failed_sessions, count(*) AS sessions,
  round(100.0 * count_if(failed) / count(*), 2) AS failure_percentage
FROM (
  SELECT session_id,
    min(CASE WHEN type = 'start' THEN bucket_ms END) AS bucket_ms,
    min(dimension) AS dimension,
    count_if(type = 'error' AND fatal) > 0 AS failed
  FROM {{events}} x
  WHERE family = 'video'
  GROUP BY session_id
  HAVING count_if(type = 'start') > 0
) s
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
