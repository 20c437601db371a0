package io.sdmq.server.web;

import io.sdmq.core.Admin;
import io.sdmq.core.RestoreCounts;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Admin: rebuild Redis from MySQL (DESIGN §5). GET is accepted because sdmq clients use it. */
@RestController
class RecoveryController {
    private final Admin queue;

    RecoveryController(Admin queue) {
        this.queue = queue;
    }

    @RequestMapping(path = "/reStore", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<RestoreCounts>> restore(@RequestParam(defaultValue = "true") boolean expire) {
        return ApiResponse.ok(queue.restore(expire));
    }

    @RequestMapping(path = "/reStoreJob", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<MessageRestore>> restoreMessage(@RequestParam(required = false) String jobId,
                                                               @RequestParam(required = false) String id,
                                                               @RequestParam(defaultValue = "true") boolean expire) {
        long messageId = MessageIds.parse(jobId, id);
        return ApiResponse.ok(new MessageRestore(Long.toString(messageId), queue.restoreMessage(messageId, expire).name()));
    }

    /** What a restore did with one message: RESTORED, ALREADY_PRESENT, EXPIRED or GONE. */
    record MessageRestore(String id, String outcome) {
    }
}
