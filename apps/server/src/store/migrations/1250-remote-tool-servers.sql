-- Remote MCP servers each user adds by URL (decision 080), and each user's trust in a server's hints (whether a
-- tool the server calls read-only may run without a card). A server of the administrator's file is named
-- "config:<name>" in server_id; a user's own by its id in mcp_servers. A user's servers are theirs alone.
CREATE TABLE mcp_servers (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (user_id, name)
);
CREATE TABLE mcp_server_settings (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  server_id TEXT NOT NULL,
  trusted INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, server_id)
);
