-- A report's sums count every fact in whole millionths as bigints (report-sums.ts): a value above
-- 1e12 would overflow the cast and fail every report that reads it. Ingest refuses such a value
-- (and a negative one); this makes the database the guarantee whatever writes a fact.
ALTER TABLE metric_facts ADD CONSTRAINT metric_facts_values_in_range CHECK (
  sessions BETWEEN 0 AND 1e12 AND
  engaged_sessions BETWEEN 0 AND 1e12 AND
  users BETWEEN 0 AND 1e12 AND
  new_users BETWEEN 0 AND 1e12 AND
  conversions BETWEEN 0 AND 1e12 AND
  conversion_value BETWEEN 0 AND 1e12 AND
  clicks BETWEEN 0 AND 1e12 AND
  impressions BETWEEN 0 AND 1e12 AND
  cost BETWEEN 0 AND 1e12 AND
  reach BETWEEN 0 AND 1e12 AND
  position_weighted BETWEEN 0 AND 1e12
);
