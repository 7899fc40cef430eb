-- Views: on-demand sessions started (a session start of an episode), counted in the bucket of the start.
-- label: Views
-- unit: sessions
-- chart: views
-- gaps: zero
SELECT bucket_ms, dimension, count(DISTINCT session_id) AS views
FROM {{events}} x
WHERE family = 'video' AND type = 'start'
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
