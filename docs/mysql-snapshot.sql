-- lockgraph MySQL/MariaDB lock snapshot (MariaDB 10.x/11.x, MySQL 5.7): every
-- session with an open InnoDB transaction or waiting for a lock ('session'
-- rows), and one 'wait' row per InnoDB lock wait (waiter, the lock it wants,
-- the blocker and the mode the blocker holds). `lockgraph watch mysql://...`
-- runs exactly this file (the build compiles it in); save its output for
-- `lockgraph analyze`:
--
--   mariadb --batch < mysql-snapshot.sql > snapshot.tsv
--   mariadb --vertical < mysql-snapshot.sql > snapshot.txt     (\G form)
--
-- MySQL 5.7 has no PROCESSLIST.TIME_MS: `lockgraph watch` runs this file there
-- with `p.TIME_MS / 1000` replaced by `p.TIME` (whole seconds).
-- Columns, cost and safety: docs/mysql.md#watch.
SELECT DATE_FORMAT(UTC_TIMESTAMP(6), '%Y-%m-%d %H:%i:%s.%f') AS sampled_at,
       'session' AS kind, p.ID AS id, p.USER AS user, p.HOST AS host, p.DB AS db,
       p.COMMAND AS command, p.TIME_MS / 1000 AS time_s, p.STATE AS state,
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
       'wait', rt.trx_mysql_thread_id, NULL, NULL, NULL, NULL, NULL, NULL,
       rt.trx_id, NULL, NULL, NULL, NULL, NULL,
       rl.lock_mode, rl.lock_type, rl.lock_table, rl.lock_index,
       rl.lock_space, rl.lock_page, rl.lock_rec, rl.lock_data,
       bt.trx_mysql_thread_id, bl.lock_mode
  FROM information_schema.INNODB_LOCK_WAITS w
  JOIN information_schema.INNODB_TRX rt ON rt.trx_id = w.requesting_trx_id
  JOIN information_schema.INNODB_TRX bt ON bt.trx_id = w.blocking_trx_id
  LEFT JOIN information_schema.INNODB_LOCKS rl ON rl.lock_id = w.requested_lock_id
  LEFT JOIN information_schema.INNODB_LOCKS bl ON bl.lock_id = w.blocking_lock_id
