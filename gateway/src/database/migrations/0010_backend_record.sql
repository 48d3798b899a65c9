-- The record of the backend (DESIGN.md §10): for each object the backend holds, what it is and whose it is, a
-- hash of its content to notice changes, and the next date its state in force changes. Not a copy of the
-- organisation: every answer is still read from the backend; this says where to look and what changed.

CREATE TABLE backend_object (
  -- The reading API's name of the kind: a detail type (`address`, `engagement`, …), `org_unit` or `employee`.
  type varchar(32) NOT NULL,
  uuid uuid NOT NULL,
  -- Whose listing holds it: a person's, else a unit's (a unit or person is its own owner).
  owner_person uuid,
  owner_unit uuid,
  -- The first and last day of any of its versions (null: open), as the backend last answered.
  valid_from date,
  valid_to date,
  -- sha256 of its versions' own content (links reduced to their UUIDs), hex.
  content_hash char(64) NOT NULL,
  -- The next day after the last look on which a version starts or ends: its state in force changes then.
  next_boundary date,
  -- Which source last saw it: `write`, `sweep` or `boundary`.
  seen_by varchar(16) NOT NULL,
  last_seen timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (type, uuid)
);

-- A lookup by UUID alone, whatever its type.
CREATE INDEX backend_object_uuid ON backend_object (uuid);
-- The boundaries due today.
CREATE INDEX backend_object_next_boundary ON backend_object (next_boundary) WHERE next_boundary IS NOT NULL;

-- The sweep's own state, one row per sweep (there is one: `backend`): who holds it (a lease every replica
-- competes for, renewed while it works, taken over once it lapses), and where the last round got to.
CREATE TABLE backend_sweep (
  name varchar(32) PRIMARY KEY,
  holder uuid,
  lease_until timestamptz NOT NULL DEFAULT '1970-01-01'::timestamptz,
  -- The start of the last complete round that read through the reading API: the next reads what changed since.
  changed_since timestamptz,
  -- When the last round finished, and how long it took.
  last_round_at timestamptz,
  last_round_ms integer
);
INSERT INTO backend_sweep (name) VALUES ('backend');
