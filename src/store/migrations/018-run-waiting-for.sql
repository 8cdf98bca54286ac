-- What a running run waits for (a person stepping in, or one the agent asked for: issue 22); NULL while it waits
-- for nothing. The run stays `running` meanwhile, so no status and no index changes.
ALTER TABLE runs ADD COLUMN waiting_for TEXT;
