-- Churned subscribers: subscriptions that expired (cancelled and run out, or unpaid after the grace) in the bucket, per creator.
-- label: Churned subscribers
-- unit: subscriptions
-- chart: churned_subscribers
-- gaps: zero
SELECT bucket_ms, dimension, count(*) AS churned_subscribers
FROM {{payments}} x
WHERE in_period AND type = 'subscription.expired'
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
