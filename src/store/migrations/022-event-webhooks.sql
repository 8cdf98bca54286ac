-- An event that the catalogue sends as a webhook carries that webhook, minted once when the event is appended: its
-- webhook-id and its body as the receiver gets it (message bodies included, which `data` leaves out). The outbox's
-- delivery, when the event has an address, holds the same id and bytes; `errand listen` forwards them from here, so
-- that what it forwards is what production sends, whether or not an address is set (issue 21, item 9). Streams never
-- read these columns. NULL for events without a webhook, and for events appended before this migration.
ALTER TABLE events ADD COLUMN webhook_id TEXT;
ALTER TABLE events ADD COLUMN webhook_payload TEXT;
