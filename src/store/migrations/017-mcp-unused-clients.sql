-- Dynamic client registration is open to anyone, so the clients nobody has signed in with are bounded (issue 21):
-- `signed_in_at` is set by the first grant, and the clients without one are counted, and the oldest of them
-- dropped, through a partial index of that bounded set. Retention drops them after a day by their id's time, so
-- the index of their creation time goes.
ALTER TABLE mcp_clients ADD COLUMN signed_in_at TEXT;
UPDATE mcp_clients SET signed_in_at = (SELECT MIN(g.created_at) FROM mcp_grants g WHERE g.client_id = mcp_clients.id);
CREATE INDEX mcp_clients_unused ON mcp_clients(id) WHERE signed_in_at IS NULL;
DROP INDEX mcp_clients_created;

-- A client's sign-ins under way are bounded too, the oldest giving way first: by client, in order of expiry.
DROP INDEX mcp_consents_client;
CREATE INDEX mcp_consents_client ON mcp_consents(client_id, expires_at);
