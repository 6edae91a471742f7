-- Each user's choices for the external (MCP) tools the administrator configured: whether the assistant may use a
-- tool, and whether it asks before running it (NULL: the default, which asks unless the tool is read-only).
-- Keyed by server and tool name, so a choice outlives the server being restarted or briefly removed from the file.
CREATE TABLE external_tool_settings (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  server TEXT NOT NULL,
  tool TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  ask INTEGER,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, server, tool)
) WITHOUT ROWID;
