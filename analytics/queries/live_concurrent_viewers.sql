-- Live concurrent viewers per minute: sessions with a start or heartbeat in that minute (client time), per channel.
SELECT channel_id, floor(client_ts_ms / 60000) * 60000 AS minute_ms, count(DISTINCT session_id) AS viewers
FROM events
WHERE family = 'live' AND type IN ('start', 'heartbeat')
GROUP BY channel_id, floor(client_ts_ms / 60000)
ORDER BY channel_id, minute_ms
