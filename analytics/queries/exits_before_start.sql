-- Exits before start: started sessions that ended without ever playing (a start and an end, no `playing`), and their share of the sessions started, in the bucket of the start; on-demand and live together (the `family` breakdown separates them).
-- label: Exits before start
-- unit: sessions; % of sessions started
-- axis: % of sessions started
-- chart: percentage
SELECT bucket_ms, dimension, count_if(exited) AS exits_before_start, count(*) AS sessions,
  round(100.0 * count_if(exited) / count(*), 2) AS percentage
FROM (
  SELECT session_id,
    min(CASE WHEN type = 'start' THEN bucket_ms END) AS bucket_ms,
    min(dimension) AS dimension,
    count_if(type = 'end') > 0 AND count_if(type = 'playing') = 0 AS exited
  FROM {{events}} x
  GROUP BY session_id
  HAVING count_if(type = 'start') > 0
) s
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
