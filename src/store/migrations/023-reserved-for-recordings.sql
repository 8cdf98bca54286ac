-- Placeholder on branch `human` only: 023 is the recordings part's migration (issue 22, item 1), and migrations
-- must be contiguous. Delete this file when merging; the recordings branch's 023 takes its place.
SELECT 1;
