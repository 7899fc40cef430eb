-- Unique viewers: distinct signed-in accounts that started a session (live or on demand) in the bucket, plus anonymous sessions counted once each.
-- label: Unique viewers
-- unit: viewers
-- chart: unique_viewers
-- gaps: zero
SELECT bucket_ms, dimension, count(DISTINCT coalesce(account_id, session_id)) AS unique_viewers
FROM {{events}} x
WHERE type = 'start'
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
