package io.sdmq.server.web;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.core.Admin;
import io.sdmq.core.BulkFilter;
import io.sdmq.core.BulkResult;
import io.sdmq.core.MessagePage;
import io.sdmq.core.MessageSearch;
import io.sdmq.server.security.AccessFilter;
import io.sdmq.server.security.TopicGuard;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/**
 * The operators' search of the message table and their bulk actions (admin role; the search for viewers too). Each
 * bulk action names its caller, the token {@link AccessFilter} found, in the status log. A token held to some topics
 * must name one of them: a search or a filter without a topic would reach beyond its scope.
 */
@RestController
class OperatorController {
    private final Admin queue;
    private final TopicGuard guard;

    OperatorController(Admin queue, TopicGuard guard) {
        this.queue = queue;
        this.guard = guard;
    }

    @GetMapping("/messages")
    ResponseEntity<ApiResponse<PageReply>> search(@RequestParam(required = false) String topic,
                                                  @RequestParam(required = false) String status,
                                                  @RequestParam(required = false) String bizKey,
                                                  @RequestParam(required = false) String createdFrom,
                                                  @RequestParam(required = false) String createdTo,
                                                  @RequestParam(required = false) String limit,
                                                  @RequestParam(required = false) String cursor) {
        checkTopic(topic, "a search without a topic");
        MessagePage page = queue.search(new MessageSearch(topic, status, bizKey, createdFrom, createdTo, limit,
                cursor));
        return ApiResponse.ok(new PageReply(page.items().stream().map(Item::of).toList(), page.nextCursor()));
    }

    @PostMapping("/messages/run-now")
    ResponseEntity<ApiResponse<BulkResult>> runNow(@RequestBody FilterBody body, HttpServletRequest request) {
        checkTopic(body.topic(), "a run-now without a topic");
        return ApiResponse.ok(queue.runNow(body.filter(), caller(request)));
    }

    @PostMapping("/messages/requeue")
    ResponseEntity<ApiResponse<BulkResult>> requeue(@RequestBody FilterBody body, HttpServletRequest request) {
        checkTopic(body.topic(), "a requeue without a topic");
        return ApiResponse.ok(queue.requeue(body.filter(), caller(request)));
    }

    @PostMapping("/messages/delete")
    ResponseEntity<ApiResponse<BulkResult>> delete(@RequestBody FilterBody body, HttpServletRequest request) {
        checkTopic(body.topic(), "a delete without a topic");
        return ApiResponse.ok(queue.delete(body.filter(), caller(request)));
    }

    @PostMapping("/topics/{topic}/purge")
    ResponseEntity<ApiResponse<BulkResult>> purge(@PathVariable String topic, HttpServletRequest request) {
        guard.checkTopic(topic);
        return ApiResponse.ok(queue.purge(topic, caller(request)));
    }

    /** The caller's scope holds {@code topic}; a scoped caller must name one. */
    private void checkTopic(String topic, String withoutTopic) {
        if (topic == null) {
            guard.requireEveryTopic(withoutTopic);
        } else {
            guard.checkTopic(topic);
        }
    }

    private static String caller(HttpServletRequest request) {
        return (String) request.getAttribute(AccessFilter.CALLER_NAME);
    }

    /** A bulk action's filter as JSON; see {@link BulkFilter}. */
    record FilterBody(String topic, List<String> ids, String bizKey, String status, String dueBefore, Boolean all) {
        BulkFilter filter() {
            return new BulkFilter(topic, ids, bizKey, status, dueBefore, all);
        }
    }

    record PageReply(List<Item> items, String nextCursor) {
    }

    /** A message of a search, without its history ({@code /job/{id}} has it); times in epoch ms as there. */
    record Item(String id, String topic, String bizKey, String body, String status, int attempts, int maxAttempts,
                int priority, long ttr, long createTime, long dueTime, long updateTime) {
        static Item of(StoredMessage s) {
            Message m = s.message();
            return new Item(Long.toString(m.id()), m.topic(), m.bizKey(), m.body(), s.status().name(), m.attempts(),
                    m.maxAttempts(), m.priority(), m.ttrMs(), m.createTime(), m.dueTime(), s.updateTime());
        }
    }
}
