-- counts_by_topic_and_status.sql
-- Answers: how many messages does each topic have in each status right now?
--
-- Parameters: none.
--
-- Reading the result: one row per (topic, status) that has messages; a status with no messages has no row.
--   topic   status    messages
--   order   DELAY     1520       waiting for their due time
--   order   READY     3          due, waiting for a consumer: a growing number means consumers are behind
--   order   RESERVED  12         with a consumer now
--   order   DEAD      2          attempts exhausted: see dead_and_expired.sql
-- It reads the whole table; on a very large table run it on a replica.

SELECT topic, status, COUNT(*) AS messages
FROM sdmq_message
GROUP BY topic, status
ORDER BY topic, status;
