-- The bot's own database, `travel`, beside `test` (which POSTGRES_DB creates for the test
-- suite); created only when it is missing, so running this again changes nothing.
-- It runs twice over (psql, as both callers use it):
--   * by the postgres image when it starts on an empty volume (docker-entrypoint-initdb.d);
--   * by compose's one-shot `travel-database` service before the bot starts, which also
--     covers a volume made before this database existed.
-- By hand: psql -h 127.0.0.1 -U postgres -d postgres -f compose/postgres-init.sql
-- (`-v database=NAME` for another name).
\if :{?database}
\else
\set database travel
\endif
SELECT format('CREATE DATABASE %I', :'database')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'database')
\gexec
