-- PostgreSQL only. The demonstration account is made with id 3 (auth.service.ts), which an identity column does not
-- count: the third account made afterwards would be given 3 again and refused. SQLite gives max(id) + 1 by itself.
SELECT setval(pg_get_serial_sequence('users', 'id'), GREATEST(coalesce((SELECT max(id) FROM users), 0), 3));
