-- lockgraph MySQL 8.0+ lock snapshot: the same columns and rows as
-- docs/mysql-snapshot.sql (MariaDB, MySQL 5.7), the waits taken from
-- performance_schema.data_lock_waits and data_locks (MySQL 8 has no
-- information_schema.INNODB_LOCK_WAITS). `lockgraph watch` runs it on a
-- MySQL 8.0+ server. Not yet run against a real MySQL 8 server by the tests
-- (MariaDB only): docs/mysql.md#watch.
SELECT DATE_FORMAT(UTC_TIMESTAMP(6), '%Y-%m-%d %H:%i:%s.%f') AS sampled_at,
       'session' AS kind, p.ID AS id, p.USER AS user, p.HOST AS host, p.DB AS db,
       p.COMMAND AS command, p.TIME AS time_s, p.STATE AS state,
       t.trx_id AS trx_id, t.trx_state AS trx_state,
       TIMESTAMPDIFF(MICROSECOND, t.trx_started, NOW(6)) / 1000000 AS trx_age_s,
       t.trx_rows_locked AS trx_rows_locked,
       TIMESTAMPDIFF(MICROSECOND, t.trx_wait_started, NOW(6)) / 1000000 AS wait_age_s,
       p.INFO AS query,
       NULL AS lock_mode, NULL AS lock_type, NULL AS lock_table, NULL AS lock_index,
       NULL AS lock_space, NULL AS lock_page, NULL AS lock_rec, NULL AS lock_data,
       NULL AS blocker_id, NULL AS blocker_mode
  FROM information_schema.PROCESSLIST p
  LEFT JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID
 WHERE p.ID <> CONNECTION_ID()
   AND (t.trx_id IS NOT NULL OR p.STATE LIKE 'Waiting for%lock%')
UNION ALL
SELECT DATE_FORMAT(UTC_TIMESTAMP(6), '%Y-%m-%d %H:%i:%s.%f'),
       'wait', rth.PROCESSLIST_ID, NULL, NULL, NULL, NULL, NULL, NULL,
       w.REQUESTING_ENGINE_TRANSACTION_ID, NULL, NULL, NULL, NULL, NULL,
       rl.LOCK_MODE, rl.LOCK_TYPE,
       CONCAT('`', rl.OBJECT_SCHEMA, '`.`', rl.OBJECT_NAME, '`'), rl.INDEX_NAME,
       NULL, NULL, NULL, rl.LOCK_DATA,
       bth.PROCESSLIST_ID, bl.LOCK_MODE
  FROM performance_schema.data_lock_waits w
  JOIN performance_schema.threads rth ON rth.THREAD_ID = w.REQUESTING_THREAD_ID
  JOIN performance_schema.threads bth ON bth.THREAD_ID = w.BLOCKING_THREAD_ID
  LEFT JOIN performance_schema.data_locks rl ON rl.ENGINE_LOCK_ID = w.REQUESTING_ENGINE_LOCK_ID
  LEFT JOIN performance_schema.data_locks bl ON bl.ENGINE_LOCK_ID = w.BLOCKING_ENGINE_LOCK_ID
