-- One table for every rotating webhook signing secret, whoever's webhooks it signs: an organisation's own (signer
-- 'org', the rows already here) and its email identity's (signer 'email'), which lived in three columns of
-- email_identities until now. Each keeps its seal: an identity's secret stays bound to '<org_id>:email-identity'.
ALTER TABLE webhook_secrets ADD COLUMN signer TEXT NOT NULL DEFAULT 'org' CHECK (signer IN ('org', 'email'));

-- A rotation in progress carries on: the previous secret keeps signing until its window closes. It goes in first,
-- so that the current one has the higher id (a signer's live secrets are read newest first, by id).
INSERT INTO webhook_secrets (org_id, signer, secret_enc, created_at, expires_at)
  SELECT org_id, 'email', previous_secret_enc, CAST(unixepoch(created_at, 'subsec') * 1000 AS INTEGER), previous_secret_expires_at
    FROM email_identities
   WHERE previous_secret_enc IS NOT NULL AND previous_secret_expires_at IS NOT NULL
   ORDER BY org_id;

-- The current secret was minted when the identity was made, or by the rotation that opened the window above.
INSERT INTO webhook_secrets (org_id, signer, secret_enc, created_at, expires_at)
  SELECT org_id, 'email', webhook_secret_enc,
         COALESCE(previous_secret_expires_at - 86400000, CAST(unixepoch(created_at, 'subsec') * 1000 AS INTEGER)), NULL
    FROM email_identities
   ORDER BY org_id;

ALTER TABLE email_identities DROP COLUMN webhook_secret_enc;
ALTER TABLE email_identities DROP COLUMN previous_secret_enc;
ALTER TABLE email_identities DROP COLUMN previous_secret_expires_at;

DROP INDEX webhook_secrets_org;
CREATE INDEX webhook_secrets_org ON webhook_secrets(org_id, signer, id);
