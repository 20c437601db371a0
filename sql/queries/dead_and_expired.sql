-- dead_and_expired.sql
-- Answers: which messages became DEAD (attempts exhausted) or EXPIRED (overdue and skipped by a restore) in a
-- time range, and why?
--
-- Parameters:
--   @from  start of the range, UTC, inclusive
--   @to    end of the range, UTC, exclusive
-- A message is in the range when its update_time (the time it reached DEAD or EXPIRED) is in [@from, @to).
--
-- Reading the result: oldest first; last_note is the note of the log row that moved it to its status.
--   id    topic    status   attempts  max_attempts  create_time   due_time      update_time   last_note
--   109   order    DEAD     1         1             10:00:00.000  10:00:01.000  10:05:00.000  attempts exhausted
--   110   payment  EXPIRED  0         3             09:00:00.000  10:00:00.000  10:20:00.000  overdue at restore
-- A DEAD message was delivered max_attempts times and never finished; its consumer failed or was too slow for
-- ttr_ms (see message_history.sql).

SET @from = '2024-01-01 00:00:00';
SET @to = '2024-01-02 00:00:00';

SELECT m.id, m.topic, m.biz_key, m.status, m.attempts, m.max_attempts, m.create_time, m.due_time,
       m.update_time,
       (SELECT l.note
        FROM sdmq_message_log l
        WHERE l.message_id = m.id AND l.to_status = m.status
        ORDER BY l.changed_at DESC, l.id DESC
        LIMIT 1) AS last_note
FROM sdmq_message m
WHERE m.status IN ('DEAD', 'EXPIRED')
  AND m.update_time >= @from
  AND m.update_time < @to
ORDER BY m.update_time, m.id;
