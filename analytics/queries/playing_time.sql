-- Playing time: time the player reported as playing (heartbeats and session end), seconds.
SELECT family, sum(coalesce(playing_seconds, 0)) AS playing_time_seconds
FROM events
WHERE type IN ('heartbeat', 'end')
GROUP BY family
ORDER BY family
