-- Placeholder on the replay branch only (issue 24): issue 23's branch owns this number and its real content.
-- At merge take that branch's file; this one exists so that 029 applies here (the runner needs contiguous numbers).
SELECT 1;
