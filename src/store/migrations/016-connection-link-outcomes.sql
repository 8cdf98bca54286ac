-- How a hosted connect flow ended, so that whoever made the link can tell (GET /v1/connections/links/{id}), even
-- when a failed attempt to connect again left the connection as it was, authenticated with its earlier tokens.
ALTER TABLE connection_links ADD COLUMN outcome TEXT CHECK (outcome IN ('authenticated', 'failed'));
ALTER TABLE connection_links ADD COLUMN outcome_detail TEXT;
