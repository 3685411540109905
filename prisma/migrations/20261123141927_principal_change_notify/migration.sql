-- Servers cache an API key's principal for a few seconds (src/http/principal-cache.ts). Any
-- change to a key or to its sub-brand (revocation, scopes, limits, allowlist, market) tells every
-- server process to drop its cache, at the change's commit (LISTEN principals_changed).
-- The function body spells its semicolons \003B: the pg driver adapter that applies migrations
-- splits a script at every semicolon, even inside a quoted body.
CREATE FUNCTION notify_principals_changed() RETURNS trigger LANGUAGE plpgsql AS
  U&'BEGIN PERFORM pg_notify(''principals_changed'', '''')\003B RETURN NULL\003B END';

CREATE TRIGGER api_keys_principals_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals_changed();

CREATE TRIGGER sub_brands_principals_changed
  AFTER UPDATE OR DELETE OR TRUNCATE ON sub_brands
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals_changed();
