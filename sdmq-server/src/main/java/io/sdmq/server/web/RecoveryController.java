package io.sdmq.server.web;

import io.sdmq.core.Admin;
import io.sdmq.server.recovery.RestoreProgress;
import io.sdmq.server.recovery.Restores;
import io.sdmq.server.security.TopicGuard;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Admin: rebuild Redis from MySQL (DESIGN §5). GET is accepted because sdmq clients use it. A whole restore acts on
 * every topic, so a token scoped to some topics may restore only its own messages, one at a time. Viewer: the
 * progress of the deployment's latest restore, whichever instance runs it.
 */
@RestController
class RecoveryController {
    private final Admin queue;
    private final Restores restores;
    private final TopicGuard guard;

    RecoveryController(Admin queue, Restores restores, TopicGuard guard) {
        this.queue = queue;
        this.restores = restores;
        this.guard = guard;
    }

    /** Waits for the restore and answers its counts; with {@code wait=false}, answers 202 and its progress at once. */
    @RequestMapping(path = "/reStore", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<? extends ApiResponse<?>> restore(@RequestParam(defaultValue = "true") boolean expire,
                                                     @RequestParam(defaultValue = "true") boolean wait) {
        guard.requireEveryTopic("a restore");
        return wait ? ApiResponse.ok(restores.run(expire)) : ApiResponse.accepted(restores.start(expire));
    }

    /** The latest restore of the deployment; {@code data} null when none ever ran. */
    @GetMapping("/reStore/progress")
    ResponseEntity<ApiResponse<RestoreProgress>> progress() {
        return ApiResponse.ok(restores.latest().orElse(null));
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
