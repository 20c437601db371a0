package io.sdmq.server.web;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.Admin;
import io.sdmq.core.MessageView;
import io.sdmq.server.security.TopicGuard;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** Admin: look a message up in MySQL, bring a dead one back; each within the topics of the caller's token. */
@RestController
class AdminController {
    private final Admin queue;
    private final TopicGuard guard;

    AdminController(Admin queue, TopicGuard guard) {
        this.queue = queue;
        this.guard = guard;
    }

    /**
     * A message and its history; the route keeps the name sdmq clients know. Its lookup answers the topic, so a
     * scoped caller is checked on the answer, with no lookup of its own.
     */
    @GetMapping("/job/{id}")
    ResponseEntity<ApiResponse<MessageReply>> message(@PathVariable String id) {
        MessageView view = queue.message(MessageIds.parse(id, null));
        guard.checkTopic(view.stored().message().topic());
        return ApiResponse.ok(MessageReply.of(view));
    }

    @PostMapping("/requeue")
    ResponseEntity<ApiResponse<Boolean>> requeue(@RequestParam(required = false) String jobId,
                                                 @RequestParam(required = false) String id) {
        long parsed = MessageIds.parse(jobId, id);
        guard.checkId(parsed);
        queue.requeue(parsed);
        return ApiResponse.ok(true);
    }

    /** A message, its status and its transition history, as MySQL records them. */
    record MessageReply(String id, String topic, String bizKey, String body, String status, int attempts, int maxAttempts,
               int priority, long ttr, long createTime, long dueTime, long updateTime, List<Step> history) {

        static MessageReply of(MessageView view) {
            StoredMessage s = view.stored();
            Message m = s.message();
            return new MessageReply(Long.toString(m.id()), m.topic(), m.bizKey(), m.body(), s.status().name(), m.attempts(),
                    m.maxAttempts(), m.priority(), m.ttrMs(), m.createTime(), m.dueTime(), s.updateTime(),
                    view.history().stream().map(Step::of).toList());
        }
    }

    /** One status change. */
    record Step(String from, String to, long changedAt, String bucket, String host, String thread, String note) {
        static Step of(Transition t) {
            return new Step(t.from() == null ? null : t.from().name(), t.to().name(), t.changedAt(), t.bucket(),
                    t.host(), t.thread(), t.note());
        }
    }
}
