-- Views: on-demand sessions started, per content.
SELECT content_id, count(DISTINCT session_id) AS views
FROM events
WHERE family = 'video' AND type = 'start'
GROUP BY content_id
ORDER BY views DESC, content_id
