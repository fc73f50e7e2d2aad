-- lockgraph snapshot: who waits for which lock, who holds it, and what each of
-- those backends is doing. `lockgraph watch` runs exactly this file (the build
-- compiles it in); save its output for `lockgraph analyze`:
--
--   psql -X --csv -f snapshot.sql > snapshot.csv
--   psql -X -At -c "SELECT json_agg(s) FROM ($(cat snapshot.sql)) s" > snapshot.json
--
-- Only locks on contested objects are listed: every holder and waiter of an object
-- some backend waits for. pg_blocking_pids() runs only on the row of a waiting
-- backend. PostgreSQL 14 and later (pg_locks.waitstart). Columns, cost and
-- safety: docs/watch.md.
WITH locks AS MATERIALIZED (
  SELECT * FROM pg_catalog.pg_locks
   WHERE pid IS DISTINCT FROM pg_catalog.pg_backend_pid()
)
SELECT pg_catalog.statement_timestamp() AS sampled_at,
       l.pid, l.locktype, l.database, l.relation, l.page, l.tuple, l.virtualxid,
       l.transactionid, l.classid, l.objid, l.objsubid, l.virtualtransaction,
       l.mode, l.granted, l.fastpath, l.waitstart,
       CASE WHEN NOT l.granted AND l.pid IS NOT NULL
            THEN pg_catalog.pg_blocking_pids(l.pid) END AS blocking_pids,
       a.wait_event_type, a.wait_event, a.state, a.backend_type, a.backend_xid,
       a.xact_start, a.query_start, a.state_change,
       a.usename, a.datname, a.application_name, a.client_addr,
       CASE WHEN l.relation IS NOT NULL AND l.database = d.oid
            THEN l.relation::pg_catalog.regclass::text END AS relation_name,
       a.query
  FROM locks l
  LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
  LEFT JOIN pg_catalog.pg_database d ON d.datname = pg_catalog.current_database()
 -- the locked object, NULLs made comparable, so that the rows can be hashed
 WHERE (l.locktype, coalesce(l.database, 0), coalesce(l.relation, 0), coalesce(l.page, -1),
        coalesce(l.tuple, -1), coalesce(l.virtualxid, ''), coalesce(l.transactionid::text, ''),
        coalesce(l.classid, 0), coalesce(l.objid, 0), coalesce(l.objsubid, -1))
    IN (SELECT w.locktype, coalesce(w.database, 0), coalesce(w.relation, 0),
               coalesce(w.page, -1), coalesce(w.tuple, -1), coalesce(w.virtualxid, ''),
               coalesce(w.transactionid::text, ''), coalesce(w.classid, 0),
               coalesce(w.objid, 0), coalesce(w.objsubid, -1)
          FROM locks w WHERE NOT w.granted)
 ORDER BY l.locktype, l.database, l.relation, l.page, l.tuple, l.virtualxid,
          l.transactionid::text, l.classid, l.objid, l.objsubid, l.granted DESC, l.waitstart,
          l.pid
