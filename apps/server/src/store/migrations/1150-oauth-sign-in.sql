-- Sign-in with an identity provider: Google, Microsoft, a company's OpenID Connect server, and later the MCP servers
-- that ask for OAuth (issue 48, decision 070). A grant is one user's sign-in at one provider: who signed in, the
-- scopes granted, and the tokens, sealed with the accounts' key (`tokens`: the refresh token and one access token per
-- audience). Accounts (and MCP servers) point at the grant they use; several may share one (Google's mail and
-- calendar). `refresh_lease_until_ms` holds off a second refresh of the same grant, in this or another process.
CREATE TABLE oauth_grants (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  subject TEXT,
  login TEXT,
  display_name TEXT,
  scopes TEXT NOT NULL DEFAULT '',
  tokens TEXT,
  client TEXT,
  refresh_lease_until_ms INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX oauth_grants_by_user ON oauth_grants(user_id);

-- A sign-in under way: the browser went to the provider with this state (kept as its SHA-256 only). The PKCE verifier
-- and nonce are sealed; `browser_hash` ties the flow to the browser that started it. Used once, then deleted.
CREATE TABLE oauth_flows (
  state_hash TEXT NOT NULL PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  grant_id INTEGER NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  secrets TEXT NOT NULL,
  browser_hash TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL
);
CREATE INDEX oauth_flows_expiry ON oauth_flows(expires_at_ms);
CREATE INDEX oauth_flows_by_grant ON oauth_flows(grant_id);

ALTER TABLE accounts ADD COLUMN grant_id INTEGER REFERENCES oauth_grants(id) ON DELETE SET NULL;
CREATE INDEX accounts_by_grant ON accounts(grant_id);

-- The message's own References chain (its References header, else its In-Reply-To), so a reply carries the whole chain.
ALTER TABLE mail_messages ADD COLUMN thread_references TEXT;
