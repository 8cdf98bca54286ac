-- Placeholder for part B of issue 23 (files out), whose migration 026 this is: the runner needs contiguous numbers,
-- and this branch's 027 comes after it. At merge, part B's 026-run-files.sql replaces this file.
SELECT 1;
