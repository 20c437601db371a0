package io.sdmq.server.web;

import io.sdmq.server.metrics.TopicStats;
import io.sdmq.server.security.TopicGuard;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Admin and viewer: a topic's counts by status, its oldest due age, and its recent deliveries and their lateness. */
@RestController
class TopicStatsController {
    private final TopicStats stats;
    private final TopicGuard guard;

    TopicStatsController(TopicStats stats, TopicGuard guard) {
        this.stats = stats;
        this.guard = guard;
    }

    @GetMapping("/topics/{topic}/stats")
    ResponseEntity<ApiResponse<TopicStats.Stats>> stats(@PathVariable String topic) {
        guard.checkTopic(topic);
        return ApiResponse.ok(stats.of(topic));
    }
}
