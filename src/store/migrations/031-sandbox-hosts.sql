-- Several Docker engines (issue 26): the host label a run asks for (its own, else its job's; null: any host), and the
-- host its latest attempt was placed on (null: not placed yet, or one host without sandbox.hosts). A job keeps its
-- label as the default of its runs.
ALTER TABLE jobs ADD COLUMN sandbox_label TEXT;
ALTER TABLE runs ADD COLUMN sandbox_label TEXT;
ALTER TABLE runs ADD COLUMN sandbox_host TEXT;
