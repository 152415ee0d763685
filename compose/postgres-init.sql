-- Run once, when the compose PostgreSQL starts on an empty volume: the bot's own database
-- (`travel`) beside `test`, which POSTGRES_DB creates for the test suite.
CREATE DATABASE travel;
