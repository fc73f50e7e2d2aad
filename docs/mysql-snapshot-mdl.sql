-- lockgraph MySQL/MariaDB metadata locks: the 'mdl' rows of a snapshot, one
-- per table metadata lock held or requested by a session whose object some
-- session waits for. Needs performance_schema = ON (MariaDB: off by default)
-- and the wait/lock/metadata/sql/mdl instrument (on by default in MySQL 8);
-- `lockgraph watch` runs it after docs/mysql-snapshot.sql when
-- performance_schema.metadata_locks exists and is enabled, and appends its rows:
--
--   mariadb --batch --skip-column-names < mysql-snapshot-mdl.sql >> snapshot.tsv
--
-- Same columns as docs/mysql-snapshot.sql. docs/mysql.md#watch.
SELECT DATE_FORMAT(UTC_TIMESTAMP(6), '%Y-%m-%d %H:%i:%s.%f') AS sampled_at,
       'mdl' AS kind, th.PROCESSLIST_ID AS id, NULL AS user, NULL AS host, NULL AS db,
       NULL AS command, NULL AS time_s, NULL AS state,
       NULL AS trx_id, m.LOCK_STATUS AS trx_state, NULL AS trx_age_s,
       NULL AS trx_rows_locked, NULL AS wait_age_s, NULL AS query,
       m.LOCK_TYPE AS lock_mode, 'METADATA' AS lock_type,
       CONCAT('`', m.OBJECT_SCHEMA, '`.`', m.OBJECT_NAME, '`') AS lock_table,
       NULL AS lock_index, NULL AS lock_space, NULL AS lock_page, NULL AS lock_rec,
       NULL AS lock_data, NULL AS blocker_id, NULL AS blocker_mode
  FROM performance_schema.metadata_locks m
  JOIN performance_schema.threads th ON th.THREAD_ID = m.OWNER_THREAD_ID
 WHERE m.OBJECT_TYPE = 'TABLE' AND th.PROCESSLIST_ID IS NOT NULL
   AND th.PROCESSLIST_ID <> CONNECTION_ID()
   AND (m.OBJECT_SCHEMA, m.OBJECT_NAME) IN
       (SELECT w.OBJECT_SCHEMA, w.OBJECT_NAME FROM performance_schema.metadata_locks w
         WHERE w.LOCK_STATUS = 'PENDING' AND w.OBJECT_TYPE = 'TABLE')
 ORDER BY m.OBJECT_SCHEMA, m.OBJECT_NAME, m.OBJECT_INSTANCE_BEGIN
