-- Indexes that the statements of connections, mail, the MCP authorization server and skipped firings read through
-- (test/store/query-plans.test.ts checks every statement's plan).

-- Deleting a project or an inbox checks the rows that refer to it.
CREATE INDEX connections_project ON connections(project_id);
CREATE INDEX email_identities_mailbox ON email_identities(mailbox_id);
-- Dropping unused clients checks their consents.
CREATE INDEX mcp_consents_client ON mcp_consents(client_id);
-- A name for a run's environment variable is unique in its scope.
CREATE INDEX connections_env_var ON connections(org_id, COALESCE(project_id, ''), env_var_name) WHERE env_var_name IS NOT NULL;
-- A job's skipped firings, newest first; partial, so that appending any other event costs nothing more.
CREATE INDEX events_skipped_firings ON events(org_id, json_extract(data, '$.job_id'), id) WHERE type = 'schedule.skipped';
-- A reply's In-Reply-To is looked up within its organisation.
DROP INDEX emails_message_id;
CREATE INDEX emails_message_id ON emails(message_id_header, org_id);
-- Sends waiting for an administrator's approval, across organisations (errand email approvals).
CREATE INDEX emails_pending_approval ON emails(id) WHERE status = 'pending_approval';
