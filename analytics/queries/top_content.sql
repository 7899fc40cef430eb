-- Top content: the ten on-demand titles with the most views (sessions started) in each bucket and breakdown, with their playing time (seconds, heartbeats and ends of those sessions).
-- label: Top content
-- unit: views; seconds
SELECT bucket_ms, dimension, place, title, content_id, views, playing_seconds
FROM (
  SELECT bucket_ms, dimension, title, content_id, views, playing_seconds,
    row_number() OVER (PARTITION BY bucket_ms, dimension ORDER BY views DESC, playing_seconds DESC, content_id) AS place
  FROM (
    SELECT bucket_ms, dimension, min(title) AS title, content_id, count(*) AS views, sum(played) AS playing_seconds
    FROM (
      SELECT session_id,
        min(CASE WHEN type = 'start' THEN bucket_ms END) AS bucket_ms,
        min(dimension) AS dimension,
        min(title) AS title,
        min(content_id) AS content_id,
        sum(CASE WHEN type IN ('heartbeat', 'end') THEN coalesce(playing_seconds, 0) ELSE 0 END) AS played
      FROM {{events}} x
      WHERE family = 'video'
      GROUP BY session_id
      HAVING count_if(type = 'start') > 0
    ) s
    GROUP BY bucket_ms, dimension, content_id
  ) c
) r
WHERE place <= 10
ORDER BY bucket_ms, dimension, place
