-- message_history.sql
-- Answers: what happened to one message? First its row in sdmq_message, then every status change in
-- sdmq_message_log in the order it happened (changed_at; within one millisecond a terminal status comes last,
-- since background transitions can be written after it, then write order).
--
-- Parameters:
--   @message_id  the message's id, as /push answered it
--
-- All times are UTC. The body is shown as its length and its first 200 characters; select `body` for all of it.
--
-- Reading the result: the first result is the message as it is now (status, attempts, due_time). Note that a
-- redelivery moves due_time, so due_time is the latest due time; create_time + delay_ms is the original one.
-- The second result is its life, one row per change, for example:
--   NULL     -> WAIT_PUT   10:00:00.000                    accepted by /push (host, http thread)
--   WAIT_PUT -> DELAY      10:00:00.000  sdmq:bucket:1     scheduled in Redis
--   DELAY    -> READY      10:01:00.010  sdmq:bucket:1     due, waiting for a consumer
--   READY    -> RESERVED   10:01:00.250  sdmq:bucket:1     delivered to a consumer
--   RESERVED -> DELAY      10:01:30.250  sdmq:bucket:1     note 'ttr expired': not finished in time, redelivered
--   ...
--   RESERVED -> FINISHED   10:01:40.000  sdmq:bucket:1     acknowledged
-- log_id is the write order; a row written late (log_id out of sequence) is normal.

SET @message_id = 0;

SELECT id, topic, biz_key, status, attempts, max_attempts, priority, delay_ms, ttr_ms, retry_delays,
       create_time, due_time, update_time,
       CHAR_LENGTH(body) AS body_chars,
       LEFT(body, 200) AS body_start
FROM sdmq_message
WHERE id = @message_id;

SELECT id AS log_id, changed_at, from_status, to_status, bucket, host, thread, note
FROM sdmq_message_log
WHERE message_id = @message_id
ORDER BY changed_at, to_status IN ('FINISHED', 'DELETED', 'DEAD', 'EXPIRED'), id;
