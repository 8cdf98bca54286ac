-- Holds number 030 for the branch that owns it, so that 031 applies on this branch alone (the runner needs contiguous
-- numbers). DELETE THIS FILE AT MERGE: the real 030 takes its place.
SELECT 1;
