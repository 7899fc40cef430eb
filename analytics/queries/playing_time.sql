-- Playing time: seconds of actual playback the players reported (heartbeats and session ends; stalls and pauses excluded), in the bucket of each report.
-- label: Playing time
-- unit: seconds
-- chart: playing_time_seconds
-- gaps: zero
SELECT bucket_ms, dimension, sum(coalesce(playing_seconds, 0)) AS playing_time_seconds
FROM {{events}} x
WHERE type IN ('heartbeat', 'end')
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
