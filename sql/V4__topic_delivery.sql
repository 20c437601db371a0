-- Push delivery: where a topic's due messages go when not to consumers that poll. A JSON object with a "type"
-- (webhook, rabbitmq, kafka) and that type's fields; NULL when consumers poll. It holds a webhook's signing secrets,
-- which the server needs to sign: grant SELECT on this table only to what may read them.

ALTER TABLE sdmq_topic
    ADD COLUMN delivery TEXT NULL COMMENT 'push delivery target (JSON), NULL when consumers poll';
