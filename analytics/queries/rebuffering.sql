-- Rebuffering: stalled time (rebuffer_ms of rebufferend events) as a percentage of stalled + playing time, and stalls (rebufferstart) per minute played, in the bucket of each event.
-- label: Rebuffer percentage
-- unit: % of viewing time; stalls per minute
-- axis: % of viewing time
-- chart: rebuffer_percentage
SELECT bucket_ms, dimension,
  round(100.0 * sum(coalesce(rebuffer_ms, 0)) / nullif(sum(coalesce(rebuffer_ms, 0)) + 1000.0 * sum(CASE WHEN type IN ('heartbeat', 'end') THEN coalesce(playing_seconds, 0) ELSE 0 END), 0), 2) AS rebuffer_percentage,
  round(count_if(type = 'rebufferstart') / nullif(sum(CASE WHEN type IN ('heartbeat', 'end') THEN coalesce(playing_seconds, 0) ELSE 0 END) / 60.0, 0), 3) AS rebuffers_per_minute,
  count_if(type = 'rebufferstart') AS rebuffer_count
FROM {{events}} x
WHERE type IN ('rebufferstart', 'rebufferend', 'heartbeat', 'end')
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
