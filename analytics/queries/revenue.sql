-- Revenue: what viewers paid each creator (subscriptions started and renewed at the plan's price, purchases completed) less what was refunded or lost to disputes, in the bucket the payment occurred, with the platform's fee and the creator's net; per creator (payment metrics are always per creator) and per store that took the payment (stripe, apple, google), in the currency's major units (payment facts carry minor units).
-- label: Revenue
-- unit: currency units
-- chart: revenue
-- gaps: zero
SELECT bucket_ms, dimension, store, round(CAST(sum(amount) AS DOUBLE) / 100, 2) AS revenue, round(CAST(sum(platform_fee) AS DOUBLE) / 100, 2) AS platform_fee, round(CAST(sum(net) AS DOUBLE) / 100, 2) AS net
FROM {{payments}} x
WHERE in_period AND amount <> 0
GROUP BY bucket_ms, dimension, store
ORDER BY bucket_ms, dimension, store
