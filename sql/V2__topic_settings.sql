-- Per-topic settings. A topic without a row behaves as the server's defaults say; a NULL column falls back to the
-- server's default for that setting. Every instance reloads this small table every second.

CREATE TABLE sdmq_topic (
    topic         VARCHAR(64)   CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL COMMENT 'the topic messages are pushed to',
    ttr_ms        BIGINT        NULL COMMENT 'time-to-run of a message pushed without one, ms',
    max_attempts  INT           NULL COMMENT 'deliveries before DEAD of a message pushed without maxAttempts',
    retry_delays  VARCHAR(2048) NULL COMMENT 'comma-separated backoff of a message pushed without retryDelays, ms',
    priority      INT           NULL COMMENT 'priority (0..999) of a message pushed without one',
    max_delay_ms  BIGINT        NULL COMMENT 'furthest ahead a message of the topic may be due, ms',
    retention_ms  BIGINT        NULL COMMENT 'how long terminal messages of the topic are kept, ms',
    rate_limit    INT           NULL COMMENT 'messages handed out per second across all instances; over it they wait',
    max_in_flight INT           NULL COMMENT 'messages RESERVED at once across all instances; over it they wait',
    paused        TINYINT(1)    NOT NULL DEFAULT 0 COMMENT '1: pushes accepted, nothing handed out',
    update_time   DATETIME(3)   NOT NULL COMMENT 'when the settings last changed (UTC)',
    PRIMARY KEY (topic)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin COMMENT = 'settings of the topics that have any';
