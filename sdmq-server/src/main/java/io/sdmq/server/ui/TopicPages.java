package io.sdmq.server.ui;

import io.sdmq.core.TopicSettings;
import io.sdmq.core.TopicView;
import io.sdmq.core.Topics;
import io.sdmq.server.delivery.DeliveryTargets;
import io.sdmq.server.metrics.TopicStats;
import io.sdmq.server.security.TopicGuard;
import io.sdmq.server.security.TopicScope;
import io.sdmq.server.series.TopicSeries;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

import java.util.List;
import java.util.Map;

/**
 * The Topics pages: the list, a page at a time by name, and one topic with its stats, pause and resume and its
 * settings editor. Each action goes through {@link Topics} and the topic guard as {@code /topics} does.
 */
@Controller
class TopicPages {
    /** Topics per page of the list: each costs a count by status and a backlog read. */
    static final int PAGE = 25;

    private final Topics topics;
    private final TopicStats stats;
    private final TopicGuard guard;
    private final DeliveryTargets deliveries;
    private final TopicSeries series;

    TopicPages(Topics topics, TopicStats stats, TopicGuard guard, DeliveryTargets deliveries, TopicSeries series) {
        this.topics = topics;
        this.stats = stats;
        this.guard = guard;
        this.deliveries = deliveries;
        this.series = series;
    }

    /** A page of topics after {@code after}; a scoped caller sees only its own, so its pages may be shorter. */
    @GetMapping("/ui/topics")
    String list(@RequestParam(required = false) String after, @RequestParam(required = false) String limit,
                Model model) {
        Integer size = UiForms.integer("limit", limit);
        List<TopicView> page = topics.page(UiForms.text(after), size == null ? PAGE : size);
        TopicScope scope = TopicScope.current();
        model.addAttribute("rows", page.stream().filter(v -> scope.allows(v.topic()))
                .map(v -> TopicRow.of(v, stats.backlog(v.topic()))).toList());
        model.addAttribute("statuses", TopicRow.STATUSES);
        model.addAttribute("next", page.size() == (size == null ? PAGE : size) ? page.get(page.size() - 1).topic()
                : null);
        return "ui/topics";
    }

    @GetMapping("/ui/topics/{topic}")
    String topic(@PathVariable String topic, Model model) {
        guard.checkTopic(topic);
        return summary(topics.get(topic), model, "ui/topic");
    }

    /**
     * The topic's last hour for its charts, as {@code GET /topics/{topic}/series?minutes=60} answers it, at a path
     * the sign-in cookie is sent to: the page's script fetches it.
     */
    @GetMapping(path = "/ui/topics/{topic}/series", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    TopicSeries.Series series(@PathVariable String topic) {
        guard.checkTopic(topic);
        return series.of(topic, 60);
    }

    @PostMapping("/ui/topics/{topic}/pause")
    String pause(@PathVariable String topic, Model model) {
        guard.checkTopic(topic);
        return summary(topics.pause(topic, true), model, "ui/topic :: summary");
    }

    @PostMapping("/ui/topics/{topic}/resume")
    String resume(@PathVariable String topic, Model model) {
        guard.checkTopic(topic);
        return summary(topics.pause(topic, false), model, "ui/topic :: summary");
    }

    /**
     * Replaces the topic's settings with the form's, as {@code PUT /topics/{topic}} does; the pause and the delivery
     * are kept as they are (the buttons and the REST route change those).
     */
    @PostMapping("/ui/topics/{topic}/settings")
    String settings(@PathVariable String topic, SettingsForm form, Model model) {
        guard.checkTopic(topic);
        TopicSettings now = topics.get(topic).settings();
        TopicSettings kept = now == null ? TopicSettings.NONE : now;
        TopicSettings changed = form.settings(kept.paused(), deliveries.check(kept.delivery()));
        topics.put(topic, changed);
        model.addAttribute("done", "settings of " + topic + " saved");
        return "ui/layout :: result";
    }

    private String summary(TopicView view, Model model, String template) {
        model.addAttribute("row", TopicRow.of(view, stats.backlog(view.topic())));
        model.addAttribute("stats", stats.of(view.topic()));
        TopicSettings s = view.settings() == null ? TopicSettings.NONE : view.settings();
        model.addAttribute("settings", s);
        model.addAttribute("delivery", deliveries.shown(s.delivery()));
        return template;
    }

    /** The settings editor's fields, as text; blank is "the server's default". */
    record SettingsForm(String ttr, String maxAttempts, String retryDelays, String priority, String maxDelay,
                        String retention, String rateLimit, String maxInFlight) {
        TopicSettings settings(boolean paused, Map<String, Object> delivery) {
            return new TopicSettings(UiForms.whole("ttr", ttr), UiForms.integer("maxAttempts", maxAttempts),
                    UiForms.wholes("retryDelays", retryDelays), UiForms.integer("priority", priority),
                    UiForms.whole("maxDelay", maxDelay), UiForms.whole("retention", retention),
                    UiForms.integer("rateLimit", rateLimit), UiForms.integer("maxInFlight", maxInFlight), paused,
                    delivery);
        }
    }
}
