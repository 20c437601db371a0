package io.sdmq.server.web;

import io.sdmq.core.TopicSettings;
import io.sdmq.core.TopicView;
import io.sdmq.core.Topics;
import io.sdmq.server.delivery.DeliveryTargets;
import io.sdmq.server.security.TopicGuard;
import io.sdmq.server.security.TopicScope;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Map;

/**
 * Admin: the topics, their settings and counts, pause and resume. A change is seen by this instance at once and by
 * the others within about a second. A token held to some topics lists, reads and changes only those.
 */
@RestController
class TopicController {
    private final Topics topics;
    private final TopicGuard guard;
    private final DeliveryTargets deliveries;

    TopicController(Topics topics, TopicGuard guard, DeliveryTargets deliveries) {
        this.topics = topics;
        this.guard = guard;
        this.deliveries = deliveries;
    }

    /** Every topic that has settings or messages, with its counts by status. */
    @GetMapping("/topics")
    ResponseEntity<ApiResponse<List<TopicView>>> list() {
        TopicScope scope = TopicScope.current();
        return ApiResponse.ok(topics.list().stream().filter(view -> scope.allows(view.topic())).map(this::shown)
                .toList());
    }

    @GetMapping("/topics/{topic}")
    ResponseEntity<ApiResponse<TopicView>> get(@PathVariable String topic) {
        guard.checkTopic(topic);
        return ApiResponse.ok(shown(topics.get(topic)));
    }

    /** Replaces the topic's settings; a field left out takes the server's default. */
    @PutMapping(path = "/topics/{topic}", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ApiResponse<TopicView>> put(@PathVariable String topic, @RequestBody TopicBody body) {
        guard.checkTopic(topic);
        TopicSettings settings = body.settings();
        return ApiResponse.ok(shown(topics.put(topic, settings.withDelivery(deliveries.check(settings.delivery())))));
    }

    /** Drops the topic's settings; its messages stay. True when it had settings. */
    @DeleteMapping("/topics/{topic}")
    ResponseEntity<ApiResponse<Boolean>> delete(@PathVariable String topic) {
        guard.checkTopic(topic);
        return ApiResponse.ok(topics.delete(topic));
    }

    @PostMapping("/topics/{topic}/pause")
    ResponseEntity<ApiResponse<TopicView>> pause(@PathVariable String topic) {
        guard.checkTopic(topic);
        return ApiResponse.ok(shown(topics.pause(topic, true)));
    }

    @PostMapping("/topics/{topic}/resume")
    ResponseEntity<ApiResponse<TopicView>> resume(@PathVariable String topic) {
        guard.checkTopic(topic);
        return ApiResponse.ok(shown(topics.pause(topic, false)));
    }

    /** The view with its delivery's secrets replaced by whether they are set. */
    private TopicView shown(TopicView view) {
        TopicSettings s = view.settings();
        return s == null || s.delivery() == null ? view
                : new TopicView(view.topic(), s.withDelivery(deliveries.shown(s.delivery())), view.counts());
    }

    /** A topic's settings on the wire; every field optional. */
    record TopicBody(Long ttr, Integer maxAttempts, List<Long> retryDelays, Integer priority, Long maxDelay,
                     Long retention, Integer rateLimit, Integer maxInFlight, Boolean paused,
                     Map<String, Object> delivery) {

        TopicSettings settings() {
            return new TopicSettings(ttr, maxAttempts, retryDelays, priority, maxDelay, retention, rateLimit,
                    maxInFlight, Boolean.TRUE.equals(paused), delivery);
        }
    }
}
