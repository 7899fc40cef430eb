-- Top content: the ten most viewed on-demand titles, with their playing time.
SELECT v.content_id, count(DISTINCT v.session_id) AS views, coalesce(sum(h.playing_seconds), 0) AS playing_seconds
FROM events v
LEFT JOIN events h ON h.session_id = v.session_id AND h.type IN ('heartbeat', 'end')
WHERE v.family = 'video' AND v.type = 'start'
GROUP BY v.content_id
ORDER BY views DESC, playing_seconds DESC, v.content_id
LIMIT 10
