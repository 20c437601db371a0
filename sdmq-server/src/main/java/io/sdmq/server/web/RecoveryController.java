package io.sdmq.server.web;

import io.sdmq.core.Admin;
import io.sdmq.core.RestoreCounts;
import io.sdmq.server.security.TopicGuard;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Admin: rebuild Redis from MySQL (DESIGN §5). GET is accepted because sdmq clients use it. A whole restore acts on
 * every topic, so a token scoped to some topics may restore only its own messages, one at a time.
 */
@RestController
class RecoveryController {
    private final Admin queue;
    private final TopicGuard guard;

    RecoveryController(Admin queue, TopicGuard guard) {
        this.queue = queue;
        this.guard = guard;
    }

    @RequestMapping(path = "/reStore", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<RestoreCounts>> restore(@RequestParam(defaultValue = "true") boolean expire) {
        guard.requireEveryTopic("a restore");
        return ApiResponse.ok(queue.restore(expire));
    }

    @RequestMapping(path = "/reStoreJob", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<MessageRestore>> restoreMessage(@RequestParam(required = false) String jobId,
                                                               @RequestParam(required = false) String id,
                                                               @RequestParam(defaultValue = "true") boolean expire) {
        long messageId = MessageIds.parse(jobId, id);
        guard.checkId(messageId);
        return ApiResponse.ok(new MessageRestore(Long.toString(messageId), queue.restoreMessage(messageId, expire).name()));
    }

    /** What a restore did with one message: RESTORED, ALREADY_PRESENT, EXPIRED or GONE. */
    record MessageRestore(String id, String outcome) {
    }
}
