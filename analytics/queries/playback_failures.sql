-- Playback failure percentage: sessions with a fatal player error.
SELECT count(DISTINCT CASE WHEN type = 'error' AND fatal THEN session_id END) AS failed_sessions,
  count(DISTINCT CASE WHEN type = 'start' THEN session_id END) AS sessions,
  round(100.0 * count(DISTINCT CASE WHEN type = 'error' AND fatal THEN session_id END)
    / count(DISTINCT CASE WHEN type = 'start' THEN session_id END), 2) AS failure_percentage
FROM events
WHERE family = 'video'
