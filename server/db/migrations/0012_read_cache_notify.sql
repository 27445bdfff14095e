-- The read cache of GET /api/registration/open (server/registration/read-cache.ts, issue 14) is
-- invalidated by the database itself, so that no writer can forget it: every insert, update or delete
-- of a table the answer or its session check reads notifies the channel `read_cache` with the user
-- whose answer changed (or `*`: every user's). A notification is sent at commit, never for a rolled
-- back write, and PostgreSQL sends one per distinct payload per transaction.

-- One function per way a row names its user, reading the columns directly (no row copy on the
-- writes of every step): its `user_id`, its `id` (users), or the request (`request_id`) or identity
-- session (`identity_session_id`) it belongs to. An update that moves a row to another user notifies both.
CREATE FUNCTION read_cache_notify_pair(old_user integer, new_user integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF old_user IS NOT NULL THEN PERFORM pg_notify('read_cache', old_user::text); END IF;
  IF new_user IS NOT NULL AND new_user IS DISTINCT FROM old_user THEN PERFORM pg_notify('read_cache', new_user::text); END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION read_cache_notify_user_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM read_cache_notify_pair(NULL, NEW.user_id);
  ELSIF TG_OP = 'DELETE' THEN PERFORM read_cache_notify_pair(OLD.user_id, NULL);
  ELSE PERFORM read_cache_notify_pair(OLD.user_id, NEW.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION read_cache_notify_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM read_cache_notify_pair(NULL, NEW.id);
  ELSIF TG_OP = 'DELETE' THEN PERFORM read_cache_notify_pair(OLD.id, NULL);
  ELSE PERFORM read_cache_notify_pair(OLD.id, NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION read_cache_request_user(integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT q.user_id FROM registration_requests q WHERE q.id = $1
$$;
--> statement-breakpoint
CREATE FUNCTION read_cache_notify_request_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM read_cache_notify_pair(NULL, read_cache_request_user(NEW.request_id));
  ELSIF TG_OP = 'DELETE' THEN PERFORM read_cache_notify_pair(read_cache_request_user(OLD.request_id), NULL);
  ELSE PERFORM read_cache_notify_pair(read_cache_request_user(OLD.request_id), read_cache_request_user(NEW.request_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION read_cache_session_user(integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT s.user_id FROM identity_sessions s WHERE s.id = $1
$$;
--> statement-breakpoint
CREATE FUNCTION read_cache_notify_identity_session_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM read_cache_notify_pair(NULL, read_cache_session_user(NEW.identity_session_id));
  ELSIF TG_OP = 'DELETE' THEN PERFORM read_cache_notify_pair(read_cache_session_user(OLD.identity_session_id), NULL);
  ELSE PERFORM read_cache_notify_pair(read_cache_session_user(OLD.identity_session_id), read_cache_session_user(NEW.identity_session_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A file is also shown in the answers of the requests that link it as a document (request-extras.ts).
CREATE FUNCTION read_cache_notify_file() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  linked integer;
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM read_cache_notify_pair(NULL, NEW.user_id);
  ELSIF TG_OP = 'DELETE' THEN PERFORM read_cache_notify_pair(OLD.user_id, NULL);
  ELSE PERFORM read_cache_notify_pair(OLD.user_id, NEW.user_id);
  END IF;
  IF TG_OP <> 'INSERT' THEN
    FOR linked IN SELECT q.user_id FROM request_documents d JOIN registration_requests q ON q.id = d.request_id WHERE d.file_id = OLD.id LOOP
      PERFORM pg_notify('read_cache', linked::text);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION read_cache_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_cache', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An access token's `last_used_at` (written at most once a minute, server/lib/tokens.ts) changes no
-- answer: the cache checks idle expiry itself on every hit.
CREATE TRIGGER read_cache_tokens AFTER UPDATE ON tokens FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION read_cache_notify_user_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_tokens_insert_delete AFTER INSERT OR DELETE ON tokens FOR EACH ROW EXECUTE FUNCTION read_cache_notify_user_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_users AFTER INSERT OR UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION read_cache_notify_user();
--> statement-breakpoint
CREATE TRIGGER read_cache_registration_requests AFTER INSERT OR UPDATE OR DELETE ON registration_requests FOR EACH ROW EXECUTE FUNCTION read_cache_notify_user_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_files AFTER INSERT OR UPDATE OR DELETE ON files FOR EACH ROW EXECUTE FUNCTION read_cache_notify_file();
--> statement-breakpoint
CREATE TRIGGER read_cache_identity_sessions AFTER INSERT OR UPDATE OR DELETE ON identity_sessions FOR EACH ROW EXECUTE FUNCTION read_cache_notify_user_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_identity_uploads AFTER INSERT OR UPDATE OR DELETE ON identity_uploads FOR EACH ROW EXECUTE FUNCTION read_cache_notify_identity_session_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_request_documents AFTER INSERT OR UPDATE OR DELETE ON request_documents FOR EACH ROW EXECUTE FUNCTION read_cache_notify_request_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_mailing_addresses AFTER INSERT OR UPDATE OR DELETE ON mailing_addresses FOR EACH ROW EXECUTE FUNCTION read_cache_notify_user_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_timeline_items AFTER INSERT OR UPDATE OR DELETE ON timeline_items FOR EACH ROW EXECUTE FUNCTION read_cache_notify_request_id();
--> statement-breakpoint
CREATE TRIGGER read_cache_partners AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON partners FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_partner_prices AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON partner_prices FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_counties AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON counties FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_cities AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cities FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
-- A table emptied at once (TRUNCATE has no rows to name a user by): every user's answers.
CREATE TRIGGER read_cache_tokens_truncate AFTER TRUNCATE ON tokens FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_users_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_registration_requests_truncate AFTER TRUNCATE ON registration_requests FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_files_truncate AFTER TRUNCATE ON files FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_identity_sessions_truncate AFTER TRUNCATE ON identity_sessions FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_identity_uploads_truncate AFTER TRUNCATE ON identity_uploads FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_request_documents_truncate AFTER TRUNCATE ON request_documents FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_mailing_addresses_truncate AFTER TRUNCATE ON mailing_addresses FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
--> statement-breakpoint
CREATE TRIGGER read_cache_timeline_items_truncate AFTER TRUNCATE ON timeline_items FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify_all();
