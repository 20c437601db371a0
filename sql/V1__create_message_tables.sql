-- sdmq system of record. Times are DATETIME(3) holding UTC wall-clock time, to the millisecond.

CREATE TABLE sdmq_message (
    id           BIGINT        NOT NULL COMMENT 'snowflake id, server-assigned',
    topic        VARCHAR(64)   CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL COMMENT 'queue consumers pop from',
    biz_key      VARCHAR(128)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL
                               COMMENT 'producer business key, unique per topic; NULL never collides',
    body         MEDIUMTEXT    NOT NULL COMMENT 'payload, opaque to sdmq',
    priority     INT           NOT NULL COMMENT '0..999 ms added to the score; lower goes first',
    delay_ms     BIGINT        NOT NULL COMMENT 'due_time - create_time, ms',
    ttr_ms       BIGINT        NOT NULL COMMENT 'time-to-run after a pop before redelivery, ms',
    max_attempts INT           NOT NULL COMMENT 'deliveries before the message is DEAD',
    retry_delays VARCHAR(2048) NULL COMMENT 'comma-separated backoff per redelivery, ms; NULL = server default',
    create_time  DATETIME(3)   NOT NULL COMMENT 'when the server accepted it (UTC)',
    due_time     DATETIME(3)   NOT NULL COMMENT 'when it becomes deliverable (UTC)',
    status       VARCHAR(16)   NOT NULL COMMENT 'WAIT_PUT, DELAY, READY, RESERVED, FINISHED, DELETED, DEAD, EXPIRED',
    attempts     INT           NOT NULL DEFAULT 0 COMMENT 'deliveries so far',
    update_time  DATETIME(3)   NOT NULL COMMENT 'when status last changed (UTC)',
    PRIMARY KEY (id),
    UNIQUE KEY uk_sdmq_message_topic_biz_key (topic, biz_key),
    KEY idx_sdmq_message_status_due_time (status, due_time)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin COMMENT = 'one row per message; the durable copy of the schedule';

CREATE TABLE sdmq_message_log (
    id          BIGINT       NOT NULL AUTO_INCREMENT COMMENT 'write order',
    message_id  BIGINT       NOT NULL COMMENT 'sdmq_message.id',
    from_status VARCHAR(16)  NULL COMMENT 'status before; NULL on the first row of a message',
    to_status   VARCHAR(16)  NOT NULL COMMENT 'status after',
    changed_at  DATETIME(3)  NOT NULL COMMENT 'when the change happened, not when it was written (UTC)',
    bucket      VARCHAR(200) NULL COMMENT 'Redis key of the bucket delay zset that holds the message',
    host        VARCHAR(128) NULL COMMENT 'server instance that made the change',
    thread      VARCHAR(128) NULL COMMENT 'thread that made the change',
    note        VARCHAR(255) NULL COMMENT 'short free-text reason',
    PRIMARY KEY (id),
    KEY idx_sdmq_message_log_message_id (message_id),
    KEY idx_sdmq_message_log_changed_at (changed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin COMMENT = 'one row per status transition of a message';
