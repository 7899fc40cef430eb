-- Video startup time: session start to the first `playing` event, milliseconds (median and p95).
SELECT count(*) AS sessions_started_playing,
  {{p50(startup_ms)}} AS startup_ms_median,
  {{p95(startup_ms)}} AS startup_ms_p95
FROM (
  SELECT s.session_id, min(p.client_ts_ms) - min(s.client_ts_ms) AS startup_ms
  FROM events s
  JOIN events p ON p.session_id = s.session_id AND p.type = 'playing'
  WHERE s.family = 'video' AND s.type = 'start'
  GROUP BY s.session_id
) t
