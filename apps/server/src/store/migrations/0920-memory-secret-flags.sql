-- A memory saved before SAGE refused secrets in every language may hold one: the start-up scan flags it (never
-- deletes it), and a flagged memory is shown to the user to edit or delete but no longer given to the model.
ALTER TABLE memories ADD COLUMN flagged_secret INTEGER NOT NULL DEFAULT 0;
