// The SQL of PostgreSQL state reads and writes: each one statement, so each is atomic and sees one snapshot.

/**
 * $1 workspace. The state row (address NULL: serial, version, extras), or none when nothing was
 * written yet, then one row per record (address, record). Rows, not one aggregated document: the
 * server sends records as it reads them and the client parses each on its own, where building
 * one jsonb of 100,000 records took minutes. One statement, so one snapshot.
 */
export const READ_SQL = `
SELECT NULL::text AS address, s.serial, s.version, s.extras, NULL::jsonb AS record
  FROM moor_state s
 WHERE s.workspace = $1
UNION ALL
SELECT r.address, NULL, NULL, NULL, r.record
  FROM moor_resource r
 WHERE r.workspace = $1`;

/** $1 workspace. The serial alone, to report a refused write. */
export const SERIAL_SQL = 'SELECT serial FROM moor_state WHERE workspace = $1';

/**
 * The head of every write: moves the workspace's serial by one and sets its extras
 * (`extras` is an SQL expression over the current value, `s.extras`). With a base serial of 1 or
 * more the row must still be at that serial (parameter `baseParam`); with base 0 it must not exist
 * yet; with no base (NULL: written without the lock) the write goes in as serial + 1. No row out means refused,
 * and then the statement's other parts change nothing either (they depend on `head`).
 */
function head(extras: string, base: number | undefined, baseParam: string): string {
  if (base !== undefined && base > 0) {
    return `UPDATE moor_state s SET serial = s.serial + 1, extras = ${extras}, updated_at = now()
             WHERE s.workspace = $1 AND s.serial = ${baseParam}::bigint RETURNING s.serial`;
  }
  return `INSERT INTO moor_state AS s (workspace, serial, version, extras, updated_at)
          VALUES ($1, 1, 1, ${extras.replaceAll('s.extras', 'NULL::jsonb')}, now())
          ON CONFLICT (workspace) DO UPDATE SET serial = s.serial + 1, extras = ${extras}, updated_at = now()
            WHERE ${baseParam}::bigint IS NULL
          RETURNING s.serial`;
}

/**
 * A whole document: $1 workspace, $2 resources (JSON object ADDRESS -> record), $3 extras (JSON
 * object or NULL), $4 base serial. Returns the new serial, or no row when refused.
 * Unchanged records are left as they are; records not in $2 are deleted.
 */
export function writeDocumentSql(base: number | undefined): string {
  return `
WITH head AS (${head('$3::jsonb', base, '$4')}),
gone AS (
  DELETE FROM moor_resource r
   WHERE r.workspace = $1 AND EXISTS (SELECT FROM head)
     AND NOT (r.address = ANY (ARRAY(SELECT jsonb_object_keys($2::jsonb))))
),
put AS (
  INSERT INTO moor_resource AS r (workspace, address, record)
  SELECT $1, e.key, e.value FROM jsonb_each($2::jsonb) e WHERE EXISTS (SELECT FROM head)
  ON CONFLICT (workspace, address) DO UPDATE SET record = excluded.record WHERE r.record IS DISTINCT FROM excluded.record
)
SELECT serial FROM head`;
}

/**
 * A batch of changes: $1 workspace, $2 records to put (JSON object ADDRESS -> record), $3 addresses
 * to remove (text[], disjoint from $2), $4 extras keys to set (JSON object or NULL), $5 base serial.
 * Returns the new serial, or no row when refused. Costs what the batch changes, not the state's size.
 */
export function appendChangesSql(base: number | undefined): string {
  const extras = `CASE WHEN $4::jsonb IS NULL THEN s.extras ELSE coalesce(s.extras, '{}'::jsonb) || $4::jsonb END`;
  return `
WITH head AS (${head(extras, base, '$5')}),
gone AS (
  DELETE FROM moor_resource r
   WHERE r.workspace = $1 AND r.address = ANY ($3::text[]) AND EXISTS (SELECT FROM head)
),
put AS (
  INSERT INTO moor_resource AS r (workspace, address, record)
  SELECT $1, e.key, e.value FROM jsonb_each($2::jsonb) e WHERE EXISTS (SELECT FROM head)
  ON CONFLICT (workspace, address) DO UPDATE SET record = excluded.record
)
SELECT serial FROM head`;
}

/**
 * $1 workspace, $2 keep, $3 max bytes. The newest runs within both (the newest one whatever its size),
 * newest first: rows beyond them are never sent.
 */
export const READ_HISTORY_SQL = `
SELECT run FROM (
  SELECT run, row_number() OVER w AS n, sum(octet_length(run::text)) OVER w AS total
    FROM (SELECT seq, run FROM moor_history WHERE workspace = $1 ORDER BY seq DESC LIMIT $2::bigint) newest
  WINDOW w AS (ORDER BY seq DESC)
) counted
 WHERE n = 1 OR total <= $3::bigint
 ORDER BY n`;

/** $1 workspace, $2 runs (a JSON array), in order. */
export const APPEND_HISTORY_SQL = `
INSERT INTO moor_history (workspace, run)
SELECT $1, e.value FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, n) ORDER BY e.n`;

/** $1 workspace, $2 keep, $3 max bytes: drops all but the newest runs within both (the newest one whatever its size). */
export const TRIM_HISTORY_SQL = `
DELETE FROM moor_history
 WHERE workspace = $1
   AND seq < (SELECT min(seq) FROM (
     SELECT seq, row_number() OVER w AS n, sum(octet_length(run::text)) OVER w AS total
       FROM (SELECT seq, run FROM moor_history WHERE workspace = $1 ORDER BY seq DESC LIMIT $2::bigint) newest
     WINDOW w AS (ORDER BY seq DESC)
   ) counted WHERE n = 1 OR total <= $3::bigint)`;
