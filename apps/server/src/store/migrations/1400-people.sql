-- Contacts accounts and the people pages (issue 53, decision 096). A CardDAV address book is an `accounts` row of
-- kind 'contacts'; each vCard it holds is kept as the server sent it with the fields SAGE reads out of it.
CREATE TABLE contact_cards (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  href TEXT NOT NULL,
  etag TEXT,
  uid TEXT NOT NULL,
  name TEXT NOT NULL,
  -- JSON lists: the card's addresses (lower case) and its groups (CATEGORIES).
  emails TEXT NOT NULL DEFAULT '[]',
  organisation TEXT,
  role TEXT,
  categories TEXT NOT NULL DEFAULT '[]',
  vcard TEXT NOT NULL,
  UNIQUE (account_id, href)
);
CREATE INDEX contact_cards_by_user ON contact_cards(user_id);

-- One row per person the user deals with. name/organisation/role are what the sources say (a contact card, else
-- the mail); `corrections` (JSON) is what the user changed, which wins over the sources and over regeneration;
-- `profile` (JSON lines with citations) is the model's short profile, made at `profile_at`.
CREATE TABLE people (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  organisation TEXT,
  role TEXT,
  card_uid TEXT,
  corrections TEXT NOT NULL DEFAULT '{}',
  profile TEXT NOT NULL DEFAULT '[]',
  profile_at TEXT,
  hidden INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX people_by_user ON people(user_id);

-- Which person an address belongs to (lower case). Merging moves the addresses; the address is the identity a
-- later refresh finds, so a merged or hidden person is never made again from new mail.
CREATE TABLE person_addresses (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  address TEXT NOT NULL,
  person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
  -- A name this address was seen with in mail headers ("Anna Berg"), for a person no card names.
  display_name TEXT,
  -- The last mail either way, or meeting held, with this address (UTC ISO).
  last_contact_at TEXT,
  PRIMARY KEY (user_id, address)
);
CREATE INDEX person_addresses_by_person ON person_addresses(person_id);

-- How far each user's people were built from their synced mail (the last mail_messages id read).
CREATE TABLE people_sync (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  mail_watermark INTEGER NOT NULL DEFAULT 0,
  refreshed_at TEXT NOT NULL
);
