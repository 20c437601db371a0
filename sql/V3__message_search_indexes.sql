-- The indexes of GET /messages and of the bulk actions' pages (decision 0028): each reads a topic's, a status's or a
-- business key's messages in id order (newest first for a search, oldest first for a bulk action's keyset pages)
-- without a sort. InnoDB appends the primary key to every secondary index, so (topic) is (topic, id) on disk; it is
-- written out to say so.

ALTER TABLE sdmq_message
    ADD KEY idx_sdmq_message_topic_id (topic, id),
    ADD KEY idx_sdmq_message_status_id (status, id),
    ADD KEY idx_sdmq_message_biz_key (biz_key);
