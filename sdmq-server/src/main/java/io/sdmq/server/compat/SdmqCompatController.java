package io.sdmq.server.compat;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRequest;
import io.sdmq.core.Admin;
import io.sdmq.core.Producer;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.Producer.PushResult;
import io.sdmq.core.RestoreCounts;
import io.sdmq.server.recovery.Restores;
import io.sdmq.server.security.TopicGuard;
import io.sdmq.server.web.ApiResponse;
import io.sdmq.server.web.MessageIds;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The routes of the original sdmq (peachyy/sdmq), so its producers and scripts work unchanged. Its reply,
 * {@code {success, code, message, data}}, is sdmq's envelope, with the {@code data} that project answers: the new id
 * for a push, null for a delete or a one-message restore, a sentence for a restore. Errors answer as sdmq's own routes
 * do, with their real status as {@code code}, where that project answered code 500 for every error.
 */
@RestController
@RequestMapping("/compat/sdmq")
class SdmqCompatController {
    private final Producer producer;
    private final Admin admin;
    private final Restores restores;
    private final TopicGuard guard;

    SdmqCompatController(Producer producer, Admin admin, Restores restores, TopicGuard guard) {
        this.producer = producer;
        this.admin = admin;
        this.restores = restores;
        this.guard = guard;
    }

    @PostMapping(path = "/push", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ApiResponse<String>> push(@RequestBody SdmqJob job) {
        if (job == null) {
            throw new InvalidRequestException("body", "must be a JSON object");
        }
        PushRequest request = job.request();
        guard.checkTopic(request.topic());
        PushResult result = producer.push(request, OnDuplicate.IGNORE);
        return ApiResponse.ok(Long.toString(result.id()), result.duplicate() ? "duplicate" : null);
    }

    @RequestMapping(path = "/delete", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<Void>> delete(@RequestParam(required = false) String jobId,
                                             @RequestParam(required = false) String id) {
        long parsed = MessageIds.parse(jobId, id);
        guard.checkId(parsed);
        producer.delete(parsed);
        return ApiResponse.ok(null);
    }

    /** Puts back into Redis what it lacks, deleting nothing, unlike that project's, which cleared Redis first. */
    @RequestMapping(path = "/reStore", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<String>> restore(@RequestParam(defaultValue = "true") boolean expire) {
        guard.requireEveryTopic("a restore");
        long started = System.nanoTime();
        RestoreCounts c = restores.run(expire);
        long ms = (System.nanoTime() - started) / 1_000_000;
        return ApiResponse.ok(String.format("restored %d of %d messages in %d ms (%d already present, %d expired,"
                + " %d gone)", c.restored(), c.scanned(), ms, c.alreadyPresent(), c.expired(), c.gone()));
    }

    /** One message; the outcome (RESTORED, ALREADY_PRESENT, EXPIRED or GONE) is the reply's message. */
    @RequestMapping(path = "/reStore/{id}", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<Void>> restoreOne(@PathVariable String id,
                                                 @RequestParam(defaultValue = "true") boolean expire) {
        return restored(MessageIds.parse(null, id), expire);
    }

    /** The same under the route that project serves, {@code /reStoreJob?jobId=}. */
    @RequestMapping(path = "/reStoreJob", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<Void>> restoreJob(@RequestParam(required = false) String jobId,
                                                 @RequestParam(required = false) String id,
                                                 @RequestParam(defaultValue = "true") boolean expire) {
        return restored(MessageIds.parse(jobId, id), expire);
    }

    private ResponseEntity<ApiResponse<Void>> restored(long id, boolean expire) {
        guard.checkId(id);
        return ApiResponse.ok(null, admin.restoreMessage(id, expire).name());
    }
}
