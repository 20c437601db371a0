package io.sdmq.server.compat;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;

/**
 * A job as ouqiang's {@code /push} carries it, checked in the order ouqiang checks it: the client's id becomes the
 * message's {@code bizKey}, so a repeated id is an idempotent push; {@code delay} and {@code ttr} are seconds.
 *
 * @param body kept as sent: ouqiang trims a body, sdmq never changes one
 */
record OuqiangJob(String topic, String id, long delaySeconds, long ttrSeconds, String body) {
    /**
     * sdmq's longest time-to-run, 12 h, where ouqiang allows 86 400 s: a longer ttr is refused, since shortening it
     * would redeliver a job its consumer is still working on.
     */
    static final long MAX_TTR_SECONDS = PushRules.MAX_TTR_MS / 1_000;

    static OuqiangJob of(OuqiangBody request, long maxDelaySeconds) {
        String id = request.identifier("id");
        if (id.length() > PushRules.MAX_BIZ_KEY) {
            throw new InvalidRequestException("id", "must be at most " + PushRules.MAX_BIZ_KEY + " characters");
        }
        String topic = request.identifier("topic");
        long delay = request.seconds("delay", maxDelaySeconds);
        long ttr = request.seconds("ttr", MAX_TTR_SECONDS);
        return new OuqiangJob(topic, id, delay, ttr, request.text("body"));
    }

    PushRequest request() {
        return new PushRequest(topic, id, body, delaySeconds * 1_000, null, null, ttrSeconds * 1_000, null, null);
    }
}
