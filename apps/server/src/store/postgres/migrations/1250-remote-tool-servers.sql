-- Twin of SQLite's 1250-remote-tool-servers.sql (decision 080).
CREATE TABLE mcp_servers (
  id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (user_id, name)
);
CREATE TABLE mcp_server_settings (
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  server_id TEXT NOT NULL,
  trusted BIGINT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, server_id)
);
