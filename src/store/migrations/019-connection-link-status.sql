-- Where a hosted connect link's flow stands, in one column that moves by compare-and-set through its table
-- (connections/oauth-client/link-lifecycle.ts): pending, opened (someone went to the provider), answered (the
-- provider sent them back and the code is being exchanged), then authenticated or failed. It takes the place of
-- `outcome`, which said only how the flow ended; opened_at and finished_at stay, as when those steps happened.
ALTER TABLE connection_links ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
  CHECK (status IN ('pending', 'opened', 'answered', 'authenticated', 'failed'));
UPDATE connection_links SET status = CASE
  WHEN outcome IS NOT NULL THEN outcome
  WHEN finished_at IS NOT NULL THEN 'answered'
  WHEN opened_at IS NOT NULL THEN 'opened'
  ELSE 'pending'
END;
ALTER TABLE connection_links DROP COLUMN outcome;
