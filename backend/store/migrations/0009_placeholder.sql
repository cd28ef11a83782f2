-- LOCAL PLACEHOLDER, never committed: stands for the migration 0009 of another issue.
SELECT 1;
