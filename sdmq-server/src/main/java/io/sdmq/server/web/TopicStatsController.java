package io.sdmq.server.web;

import io.sdmq.server.metrics.TopicStats;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Admin: a topic's counts by status, its oldest due age, and its recent deliveries and their lateness. */
@RestController
class TopicStatsController {
    private final TopicStats stats;

    TopicStatsController(TopicStats stats) {
        this.stats = stats;
    }

    @GetMapping("/topics/{topic}/stats")
    ResponseEntity<ApiResponse<TopicStats.Stats>> stats(@PathVariable String topic) {
        return ApiResponse.ok(stats.of(topic));
    }
}
