package io.sdmq.server.series;

import io.sdmq.server.security.TopicGuard;
import io.sdmq.server.web.ApiResponse;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Viewer: a topic's deliveries and lateness per minute over the last hour, across every instance. */
@RestController
class SeriesController {
    private final TopicSeries series;
    private final TopicGuard guard;

    SeriesController(TopicSeries series, TopicGuard guard) {
        this.series = series;
        this.guard = guard;
    }

    @GetMapping("/topics/{topic}/series")
    ResponseEntity<ApiResponse<TopicSeries.Series>> series(@PathVariable String topic,
                                                           @RequestParam(defaultValue = "60") int minutes) {
        guard.checkTopic(topic);
        return ApiResponse.ok(series.of(topic, minutes));
    }
}
