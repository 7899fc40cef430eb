-- Rebuffering: stalled time as a percentage of playing + stalled time, and stalls per minute played.
SELECT
  round(100.0 * r.rebuffer_ms / (r.rebuffer_ms + 1000.0 * p.playing_seconds), 2) AS rebuffer_percentage,
  round(r.stalls / (p.playing_seconds / 60.0), 3) AS rebuffers_per_minute,
  r.stalls AS rebuffer_count
FROM (
  SELECT coalesce(sum(rebuffer_ms), 0) AS rebuffer_ms, count_if(type = 'rebufferstart') AS stalls
  FROM events
  WHERE family = 'video' AND type IN ('rebufferstart', 'rebufferend')
) r
CROSS JOIN (
  SELECT sum(coalesce(playing_seconds, 0)) AS playing_seconds
  FROM events
  WHERE family = 'video' AND type IN ('heartbeat', 'end')
) p
