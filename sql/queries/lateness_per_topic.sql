-- lateness_per_topic.sql
-- Answers: how late after their due time were messages delivered, per topic?
--
-- A delivery is a READY -> RESERVED row of sdmq_message_log; its lateness is its changed_at minus the message's
-- due time, in ms. Only FIRST deliveries count, the ones whose changed_at is in [@from, @to): the log does not
-- record the due time of a redelivery, and sdmq_message.due_time holds only the latest one, so the original due
-- time create_time + delay_ms is the one due time known for sure. A message first delivered before @from does not
-- count even when it is redelivered inside the range.
-- Lateness includes the priority offset (0..999 ms) by design, and any clock difference between hosts.
--
-- Parameters:
--   @from  start of the range, UTC, inclusive
--   @to    end of the range, UTC, exclusive
--
-- Reading the result: one row per topic with first deliveries in the range.
--   topic  deliveries  avg_ms  p50_ms  p99_ms  max_ms
--   order  1000        12.4    8       95      340
-- p50_ms and p99_ms are nearest-rank percentiles: 99 % of the deliveries were at most p99_ms late. With fewer
-- than 100 deliveries p99_ms is the maximum.

SET @from = '2024-01-01 00:00:00';
SET @to = '2024-01-02 00:00:00';

WITH first_deliveries AS (
    SELECT m.topic,
           TIMESTAMPDIFF(MICROSECOND, m.create_time, l.changed_at) DIV 1000 - m.delay_ms AS lateness_ms
    FROM sdmq_message_log l
    JOIN sdmq_message m ON m.id = l.message_id
    WHERE l.from_status = 'READY' AND l.to_status = 'RESERVED'
      AND l.changed_at >= @from
      AND l.changed_at < @to
      AND NOT EXISTS (
          SELECT 1
          FROM sdmq_message_log earlier
          WHERE earlier.message_id = l.message_id
            AND earlier.from_status = 'READY' AND earlier.to_status = 'RESERVED'
            AND (earlier.changed_at < l.changed_at OR (earlier.changed_at = l.changed_at AND earlier.id < l.id))
      )
),
ranked AS (
    SELECT topic, lateness_ms,
           ROW_NUMBER() OVER (PARTITION BY topic ORDER BY lateness_ms) AS position_in_topic,
           COUNT(*) OVER (PARTITION BY topic) AS topic_deliveries
    FROM first_deliveries
)
SELECT topic,
       COUNT(*) AS deliveries,
       ROUND(AVG(lateness_ms), 1) AS avg_ms,
       MIN(CASE WHEN position_in_topic >= CEIL(0.50 * topic_deliveries) THEN lateness_ms END) AS p50_ms,
       MIN(CASE WHEN position_in_topic >= CEIL(0.99 * topic_deliveries) THEN lateness_ms END) AS p99_ms,
       MAX(lateness_ms) AS max_ms
FROM ranked
GROUP BY topic
ORDER BY topic;
