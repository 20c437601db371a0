-- throughput_per_minute.sql
-- Answers: how many messages were pushed, delivered and finished in each minute of a time range?
--   pushed     log rows to WAIT_PUT (a new message; also a DEAD or EXPIRED message pushed again, if ever)
--   delivered  log rows to RESERVED (every delivery, redeliveries included)
--   finished   log rows to FINISHED
--
-- Parameters:
--   @from  start of the range, UTC, inclusive
--   @to    end of the range, UTC, exclusive
--
-- Reading the result: one row per UTC minute that had at least one of these changes; a minute with none has NO
-- row (it is not shown as zeros).
--   minute_utc        pushed  delivered  finished
--   2024-05-01 10:00  6       1          0
--   2024-05-01 10:01  0       3          2
-- delivered well above pushed for long means redeliveries (TTR too short or consumers failing); finished below
-- delivered means consumers are not acknowledging.

SET @from = '2024-01-01 00:00:00';
SET @to = '2024-01-01 01:00:00';

SELECT DATE_FORMAT(changed_at, '%Y-%m-%d %H:%i') AS minute_utc,
       SUM(CASE WHEN to_status = 'WAIT_PUT' THEN 1 ELSE 0 END) AS pushed,
       SUM(CASE WHEN to_status = 'RESERVED' THEN 1 ELSE 0 END) AS delivered,
       SUM(CASE WHEN to_status = 'FINISHED' THEN 1 ELSE 0 END) AS finished
FROM sdmq_message_log
WHERE changed_at >= @from
  AND changed_at < @to
  AND to_status IN ('WAIT_PUT', 'RESERVED', 'FINISHED')
GROUP BY DATE_FORMAT(changed_at, '%Y-%m-%d %H:%i')
ORDER BY minute_utc;
