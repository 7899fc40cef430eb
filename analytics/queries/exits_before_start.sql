-- Exits before video start: started sessions that ended without ever playing.
SELECT count(*) AS exits_before_start,
  round(100.0 * count(*) / (SELECT count(DISTINCT session_id) FROM events WHERE family = 'video' AND type = 'start'), 2) AS percentage
FROM (
  SELECT session_id
  FROM events
  WHERE family = 'video'
  GROUP BY session_id
  HAVING count_if(type = 'start') > 0 AND count_if(type = 'end') > 0 AND count_if(type = 'playing') = 0
) t
