-- Whether a run records its browser (a Playwright trace and a video, issue 22): decided when the run is made, from
-- the run's `recording`, else its job's, else on; `recording.enabled` off turns it off for every run at the daemon.
-- Runs and jobs made before this migration record.
ALTER TABLE jobs ADD COLUMN recording INTEGER NOT NULL DEFAULT 1 CHECK (recording IN (0, 1));
ALTER TABLE runs ADD COLUMN recording INTEGER NOT NULL DEFAULT 1 CHECK (recording IN (0, 1));
