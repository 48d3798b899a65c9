-- OS2mo's event system (namespaces, listeners, pending events), as OS2mo keeps it: the tables and constraints
-- of OS2mo's migration `alembic/versions/fddce88bc3ac_graphql_events.py` (HEAD) and `mora/db/events.py`.
-- gen_random_uuid() is Postgres's own (13+), so no extension is needed (OS2mo uses uuid-ossp's v4).

CREATE TABLE event_namespace (
  name varchar(255) PRIMARY KEY,
  -- Who may send in it (and, unless public, listen): the client that declared it.
  owner uuid NOT NULL,
  public boolean NOT NULL
);

CREATE TABLE event_listener (
  pk uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_key varchar(255) NOT NULL,
  owner uuid NOT NULL,
  routing_key varchar(255) NOT NULL,
  namespace_fk varchar(255) NOT NULL REFERENCES event_namespace (name),
  CONSTRAINT uq_user_key_owner_namespace UNIQUE (user_key, owner, namespace_fk)
);

CREATE TABLE event (
  pk uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subject varchar NOT NULL,
  priority integer NOT NULL,
  -- Renewed whenever the event is sent again, so an acknowledgement of an older delivery leaves it pending.
  generation uuid NOT NULL DEFAULT gen_random_uuid(),
  -- When event_fetch last handed it out; the epoch means "never", so it is due at once.
  last_tried timestamptz NOT NULL DEFAULT '1970-01-01'::timestamptz,
  fetched_count integer NOT NULL DEFAULT 0,
  silenced boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  listener_fk uuid NOT NULL REFERENCES event_listener (pk),
  CONSTRAINT uq_listener_subject UNIQUE (listener_fk, subject)
);

-- OS2mo's public namespace for its own objects. OS2mo gives it a random owner; this one is fixed (the nil
-- UUID's neighbour), so no client's token can ever be its owner and send in it.
INSERT INTO event_namespace (name, owner, public)
VALUES ('mo', '00000000-0000-0000-0000-00000000006d', true);
