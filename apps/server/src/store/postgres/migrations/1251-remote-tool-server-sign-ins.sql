-- Twin of SQLite's 1251-remote-tool-server-sign-ins.sql (decision 080).
CREATE TABLE mcp_sign_ins (
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  server_id TEXT NOT NULL,
  grant_id BIGINT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, server_id)
);
CREATE INDEX mcp_sign_ins_by_grant ON mcp_sign_ins(grant_id);
