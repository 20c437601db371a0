package io.sdmq.server.web;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.Admin;
import io.sdmq.core.MessageView;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** Admin: look a message up in MySQL, bring a dead one back. */
@RestController
class AdminController {
    private final Admin queue;

    AdminController(Admin queue) {
        this.queue = queue;
    }

    /** A message and its history; the route keeps the name sdmq clients know. */
    @GetMapping("/job/{id}")
    ResponseEntity<ApiResponse<MessageReply>> message(@PathVariable String id) {
        return ApiResponse.ok(MessageReply.of(queue.message(MessageIds.parse(id, null))));
    }

    @PostMapping("/requeue")
    ResponseEntity<ApiResponse<Boolean>> requeue(@RequestParam(required = false) String jobId,
                                                 @RequestParam(required = false) String id) {
        queue.requeue(MessageIds.parse(jobId, id));
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
    record Step(String from, String to, long changedAt, String bucket, String thread, String note) {
        static Step of(Transition t) {
            return new Step(t.from() == null ? null : t.from().name(), t.to().name(), t.changedAt(), t.bucket(),
                    t.thread(), t.note());
        }
    }
}
