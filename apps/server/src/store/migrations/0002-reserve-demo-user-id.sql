-- The demonstration account has the spec's fixed id 3; other accounts start after it, whoever is created first.
INSERT INTO sqlite_sequence (name, seq) SELECT 'users', 3 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'users');
UPDATE sqlite_sequence SET seq = 3 WHERE name = 'users' AND seq < 3;
