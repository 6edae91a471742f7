-- "Add notes" after a meeting (issue 53, decision 099): the notes the user typed or dictated are a note of the
-- knowledge base (read by search and the commitments scan); this row files that note under its calendar event, so
-- the next dossier with the same people quotes them.
CREATE TABLE event_notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  event_id INTEGER NOT NULL,
  item_id INTEGER NOT NULL REFERENCES knowledge_items(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
CREATE INDEX event_notes_by_event ON event_notes(user_id, event_id);
