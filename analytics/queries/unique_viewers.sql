-- Unique viewers: signed-in accounts, plus anonymous sessions counted once each.
SELECT family, count(DISTINCT coalesce(account_id, session_id)) AS unique_viewers
FROM events
WHERE type = 'start'
GROUP BY family
ORDER BY family
