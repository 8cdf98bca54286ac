-- GET /v1/emails/received lists an organisation's received mail newest first, by inbox (this index), by run
-- (received_emails_run) or all of it (received_emails_org); `since` is a range of the id in each.
CREATE INDEX received_emails_mailbox ON received_emails(org_id, mailbox_id, id) WHERE mailbox_id IS NOT NULL;
