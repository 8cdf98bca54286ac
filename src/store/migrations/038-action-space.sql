-- Action spaces (issue 33, item 4): how the agent works a page, 'dom' (the browser tool, by references) or 'computer'
-- (the model API's own computer-use tool, by screenshots and coordinates). A run keeps what it was made with (its
-- own, else its job's); a job keeps the default of its runs.
ALTER TABLE jobs ADD COLUMN action_space TEXT NOT NULL DEFAULT 'dom' CHECK (action_space IN ('dom', 'computer'));
ALTER TABLE runs ADD COLUMN action_space TEXT NOT NULL DEFAULT 'dom' CHECK (action_space IN ('dom', 'computer'));
