package outbox

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// lockKey is the advisory lock key of name: its FNV-1a hash, as PostgreSQL's
// bigint.
func lockKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte("acemq:" + name))
	return int64(h.Sum64())
}

// outboxSchema is the outbox table's DDL.
//
// Rows are published in commit order, not insert order: seq is given to a
// row by a deferred constraint trigger, which runs at COMMIT and takes a
// transaction-scoped advisory lock first, so the transactions that wrote the
// outbox commit one after the other from that moment (their commit only,
// not their work) and take seq values in the order they become visible.
func outboxSchema(t tableName) string {
	r := strings.NewReplacer(
		"{table}", t.quoted,
		"{seq}", t.derived("commit_seq"),
		"{seqname}", t.derived("commit_seq"),
		"{pending}", `"`+t.base+`_pending"`,
		"{published}", `"`+t.base+`_published"`,
		"{fn}", t.derived("commit_order"),
		"{trigger}", `"`+t.base+`_commit_order"`,
		"{trigname}", t.base+"_commit_order",
		"{lock}", fmt.Sprint(lockKey("commit:"+t.raw)),
	)
	return r.Replace(outboxDDL)
}

const outboxDDL = `CREATE TABLE IF NOT EXISTS {table} (
    id             bigserial   PRIMARY KEY,
    seq            bigint,
    message_id     text        NOT NULL,
    exchange       text        NOT NULL,
    routing_key    text        NOT NULL,
    body           bytea       NOT NULL,
    content_type   text        NOT NULL DEFAULT '',
    headers        jsonb       NOT NULL DEFAULT '{}',
    reply_to       text        NOT NULL DEFAULT '',
    correlation_id text        NOT NULL DEFAULT '',
    expiration     text        NOT NULL DEFAULT '',
    persistent     boolean     NOT NULL DEFAULT true,
    mandatory      boolean     NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    attempts       integer     NOT NULL DEFAULT 0,
    last_error     text,
    published_at   timestamptz,
    retired_at     timestamptz
);
CREATE SEQUENCE IF NOT EXISTS {seq};
CREATE INDEX IF NOT EXISTS {pending} ON {table} (seq, id) WHERE published_at IS NULL AND retired_at IS NULL;
CREATE INDEX IF NOT EXISTS {published} ON {table} (published_at) WHERE published_at IS NOT NULL;
CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock({lock});
    UPDATE {table} SET seq = nextval('{seqname}') WHERE id = NEW.id;
    RETURN NULL;
END
$$;
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '{trigname}' AND tgrelid = '{table}'::regclass) THEN
        CREATE CONSTRAINT TRIGGER {trigger} AFTER INSERT ON {table}
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {fn}();
    END IF;
END
$$;
`

// inboxSchema is the inbox table's DDL.
func inboxSchema(t tableName) string {
	return strings.NewReplacer("{table}", t.quoted, "{handled}", `"`+t.base+`_handled_at"`).Replace(inboxDDL)
}

const inboxDDL = `CREATE TABLE IF NOT EXISTS {table} (
    queue      text        NOT NULL,
    message_id text        NOT NULL,
    handled_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (queue, message_id)
);
CREATE INDEX IF NOT EXISTS {handled} ON {table} (handled_at);
`

// checkpointSchema is the checkpoints table's DDL: a row per stream reader,
// the offset of the last record it finished.
func checkpointSchema(t tableName) string {
	return strings.NewReplacer("{table}", t.quoted).Replace(checkpointDDL)
}

const checkpointDDL = `CREATE TABLE IF NOT EXISTS {table} (
    reader      text        PRIMARY KEY,
    last_offset bigint      NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
`
