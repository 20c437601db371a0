package io.sdmq.server.web;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRequest;
import io.sdmq.core.Producer.OnDuplicate;

import java.util.List;

/** A pushed message on the wire: the fields of DESIGN §2 plus what to do when its business key is taken. */
record PushBody(String topic, String bizKey, String body, Long delay, Long deliverAt, Integer priority, Long ttr,
                Integer maxAttempts, List<Long> retryDelays, String onDuplicate) {

    PushRequest request() {
        return new PushRequest(topic, bizKey, body, delay, deliverAt, priority, ttr, maxAttempts, retryDelays);
    }

    /** {@code ignore} (the default) or {@code replace}. */
    OnDuplicate duplicates() {
        if (onDuplicate == null || onDuplicate.equals("ignore")) {
            return OnDuplicate.IGNORE;
        }
        if (onDuplicate.equals("replace")) {
            return OnDuplicate.REPLACE;
        }
        throw new InvalidRequestException("onDuplicate", "must be ignore or replace");
    }
}
