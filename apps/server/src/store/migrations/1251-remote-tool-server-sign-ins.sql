-- Which grant of the sign-in module (oauth_grants, decision 070) holds a user's sign-in to a remote MCP server
-- (decision 080): one per user and server ("config:<name>" or a mcp_servers id). The grant keeps the tokens and
-- SAGE's registration sealed; removing the grant removes the link.
CREATE TABLE mcp_sign_ins (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  server_id TEXT NOT NULL,
  grant_id INTEGER NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, server_id)
);
CREATE INDEX mcp_sign_ins_by_grant ON mcp_sign_ins(grant_id);
