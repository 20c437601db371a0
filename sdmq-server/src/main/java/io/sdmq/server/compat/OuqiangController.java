package io.sdmq.server.compat;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.core.Consumer;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.Producer;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.Producer.PushResult;
import io.sdmq.server.delivery.Dispatchers;
import io.sdmq.server.security.TopicGuard;
import io.sdmq.server.web.ParkedReply;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.List;

/**
 * The HTTP API of ouqiang/delay-queue, so its clients work unchanged: push, pop, finish and delete, each a POST of a
 * JSON body, answered {@code {code, message, data}} with HTTP 200 (see {@link OuqiangReply}). The body is read
 * whatever its content type, as ouqiang reads it.
 */
@RestController
@RequestMapping("/compat/ouqiang")
class OuqiangController {
    /** How long ouqiang's server holds a pop. */
    static final Duration OUQIANG_POP_WAIT = Duration.ofSeconds(180);
    /** A body byte takes at most six in a JSON string ({@code \u0000}); the other fields fit in the rest. */
    private static final int JSON_BYTES_PER_BODY_BYTE = 6;
    private static final int ENVELOPE_BYTES = 4_096;

    private final Producer producer;
    private final Consumer consumer;
    private final ClientIds clientIds;
    private final EngineSettings settings;
    private final JsonMapper json;
    private final TopicGuard guard;
    private final Dispatchers dispatchers;

    OuqiangController(Producer producer, Consumer consumer, ClientIds clientIds, EngineSettings settings,
                      JsonMapper json, TopicGuard guard, Dispatchers dispatchers) {
        this.dispatchers = dispatchers;
        this.producer = producer;
        this.consumer = consumer;
        this.clientIds = clientIds;
        this.settings = settings;
        this.json = json;
        this.guard = guard;
    }

    /** {@code {topic, id, delay, ttr, body}}, seconds; a repeated id leaves the first message as it was. */
    @PostMapping("/push")
    OuqiangReply push(HttpServletRequest request) {
        OuqiangJob job = OuqiangJob.of(body(request), settings.pushRules().maxDelayMs() / 1_000);
        guard.checkTopic(job.topic());
        clientIds.checkFree(job.topic(), job.id());
        PushResult result = producer.push(job.request(), OnDuplicate.IGNORE);
        return OuqiangReply.ok(result.duplicate() ? "duplicate: a pending message has this id; it stays as it was"
                : "added", null);
    }

    /**
     * {@code {topic}}: one job, or null data when none came in time. Waits as long as ouqiang's 180 s or
     * {@code sdmq.consumer.max-wait} (60 s by default), whichever is shorter; a waiting pop is parked and holds no
     * thread, as {@code /get} is. One topic a pop: ouqiang's comma list of topics is refused, since sdmq waits on one.
     */
    @PostMapping("/pop")
    Object pop(HttpServletRequest request) {
        String topic = body(request).identifier("topic");
        if (topic.contains(",")) {
            throw new InvalidRequestException("topic", "must name one topic: sdmq waits on one topic a pop");
        }
        guard.checkTopic(topic);
        dispatchers.checkPolled(topic);
        Duration wait = settings.maxWait().compareTo(OUQIANG_POP_WAIT) < 0 ? settings.maxWait() : OUQIANG_POP_WAIT;
        return ParkedReply.of(consumer.pop(topic, 1, wait, Duration.ZERO), wait.toMillis(),
                OuqiangController::popped);
    }

    private static OuqiangReply popped(List<Message> messages) {
        if (messages.isEmpty()) {
            return OuqiangReply.ok("no job ready", null);
        }
        Message m = messages.get(0);
        return OuqiangReply.ok("ok", new OuqiangReply.Job(m.bizKey() != null ? m.bizKey() : Long.toString(m.id()),
                m.body()));
    }

    /** {@code {id}}: acknowledges the reserved job with the client's id. */
    @PostMapping("/finish")
    OuqiangReply finish(HttpServletRequest request) {
        Message message = clientIds.messageOf(body(request).identifier("id"), "finish");
        guard.checkTopic(message.topic());
        consumer.finish(message.id());
        return OuqiangReply.ok("finished", null);
    }

    /** {@code {id}}: cancels the pending or reserved job with the client's id. */
    @PostMapping("/delete")
    OuqiangReply delete(HttpServletRequest request) {
        Message message = clientIds.messageOf(body(request).identifier("id"), "delete");
        guard.checkTopic(message.topic());
        producer.delete(message.id());
        return OuqiangReply.ok("deleted", null);
    }

    /** The body, read whatever its content type; at most what a largest message body takes as a JSON string. */
    private OuqiangBody body(HttpServletRequest request) {
        long limit = (long) JSON_BYTES_PER_BODY_BYTE * settings.pushRules().maxBodyBytes() + ENVELOPE_BYTES;
        return OuqiangBody.read(request, json, (int) Math.min(limit, Integer.MAX_VALUE - 1));
    }
}
