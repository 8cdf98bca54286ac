-- The proxy connection a run leaves through (issue 23, item 4): its name, decided when the run is made (the run's
-- `proxy`, else its job's); null: the operator's sandbox.egress_proxy, if any, else none. A job keeps its own as the
-- default of its runs.
ALTER TABLE jobs ADD COLUMN proxy TEXT;
ALTER TABLE runs ADD COLUMN proxy TEXT;
