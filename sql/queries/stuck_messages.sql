-- stuck_messages.sql
-- Answers: which messages are in a non-terminal status (WAIT_PUT, DELAY, READY, RESERVED) and have not moved on
-- for more than @older_than_minutes after the time they should have?
--
-- When a message should move on (stuck_since):
--   DELAY     its due_time, or its update_time if later: a message waiting for a due time in the future is not
--             stuck, however old its update_time;
--   RESERVED  update_time + ttr_ms: the consumer has ttr_ms to finish it before it is redelivered;
--   WAIT_PUT, READY  its update_time (a READY message waits for a consumer to pop it).
-- So every message listed also has an update_time older than @older_than_minutes.
--
-- Parameters:
--   @older_than_minutes  how long past stuck_since counts as stuck
--   @now                 the reference time, UTC; leave it as UTC_TIMESTAMP(3) for "now"
--
-- Reading the result: longest stuck first.
--   id    topic  status    attempts  due_time      update_time   stuck_since   stuck_minutes
--   102   order  RESERVED  1         10:02:00.000  10:02:01.000  10:02:31.000  117
-- Message 102 was delivered at 10:02:01, its TTR of 30 s ran out at 10:02:31 and nothing redelivered it for
-- 117 minutes. WAIT_PUT rows mean Redis never took them; DELAY rows past due mean the timer did not fire; READY
-- rows mean no consumer pops the topic. Look at message_history.sql for one of them.

SET @older_than_minutes = 10;
SET @now = UTC_TIMESTAMP(3);

SELECT id, topic, status, attempts, due_time, update_time, stuck_since,
       TIMESTAMPDIFF(MINUTE, stuck_since, @now) AS stuck_minutes
FROM (
    SELECT id, topic, status, attempts, due_time, update_time,
           CASE status
               WHEN 'DELAY' THEN GREATEST(update_time, due_time)
               WHEN 'RESERVED' THEN CAST(DATE_ADD(update_time, INTERVAL ttr_ms * 1000 MICROSECOND) AS DATETIME(3))
               ELSE update_time
           END AS stuck_since
    FROM sdmq_message
    WHERE status IN ('WAIT_PUT', 'DELAY', 'READY', 'RESERVED')
      AND update_time < DATE_SUB(@now, INTERVAL @older_than_minutes MINUTE)
) waiting
WHERE stuck_since < DATE_SUB(@now, INTERVAL @older_than_minutes MINUTE)
ORDER BY stuck_since, id;
