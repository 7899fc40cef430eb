-- New subscribers: subscriptions started (first paid, or paid again after expiring) in the bucket, per creator.
-- label: New subscribers
-- unit: subscriptions
-- chart: new_subscribers
-- gaps: zero
SELECT bucket_ms, dimension, count(*) AS new_subscribers
FROM {{payments}} x
WHERE in_period AND type = 'subscription.started'
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
