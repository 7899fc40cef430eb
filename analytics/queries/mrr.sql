-- MRR: monthly recurring revenue at the end of each bucket: the plan price per month (a yearly plan counts its price / 12) of every subscription started or renewed and not yet expired (a cancelled one counts until it expires), per creator, in the currency's major units.
-- label: MRR
-- unit: currency units per month
-- chart: mrr
-- gaps: zero
SELECT bucket_ms, dimension, round(sum(monthly_amount) / 100, 2) AS mrr, count(*) AS subscribers
FROM (
  SELECT b.bucket_ms, p.dimension, p.type, p.monthly_amount,
    row_number() OVER (PARTITION BY b.bucket_ms, p.creator_id, p.account_id ORDER BY p.occurred_at_ms DESC, p.received_at_ms DESC) AS newest
  FROM {{buckets}} b
  JOIN {{payments}} p ON p.occurred_at_ms < b.end_ms
  WHERE p.type IN ('subscription.started', 'subscription.renewed', 'subscription.expired')
) s
WHERE newest = 1 AND type <> 'subscription.expired'
GROUP BY bucket_ms, dimension
ORDER BY bucket_ms, dimension
