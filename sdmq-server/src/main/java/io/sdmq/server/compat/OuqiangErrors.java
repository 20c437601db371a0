package io.sdmq.server.compat;

import io.sdmq.common.ForbiddenTopicException;
import io.sdmq.common.SdmqException;
import io.sdmq.common.UnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.sdmq.server.web.ApiResponse;

import java.util.concurrent.CompletionException;

/**
 * Every failure of an ouqiang route as ouqiang answers one: HTTP 200, {@code code} 1, sdmq's message. Ahead of the
 * server's own mapping, for these routes only; what would be a 4xx is logged at WARN, the rest at ERROR.
 */
@RestControllerAdvice(assignableTypes = OuqiangController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class OuqiangErrors {
    private static final Logger log = LoggerFactory.getLogger(OuqiangErrors.class);

    /**
     * A topic beyond the caller's token is refused as the access filter refuses a token on these routes: a real 403
     * in sdmq's envelope, which an ouqiang client reports as the failed call it is.
     */
    @ExceptionHandler(ForbiddenTopicException.class)
    ResponseEntity<ApiResponse<Void>> forbidden(ForbiddenTopicException e) {
        log.warn("answering 403: {}", e.getMessage());
        return ApiResponse.error(HttpStatus.FORBIDDEN, e.getMessage());
    }

    /** The reply for a failure, thrown by a route or completing a parked pop (then maybe wrapped). */
    @ExceptionHandler(Exception.class)
    OuqiangReply failed(Exception failure) {
        Throwable e = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (e instanceof UnavailableException) {
            log.error("answering code 1: {}; the client may retry", e.getMessage());
            return OuqiangReply.failed(e.getMessage());
        }
        if (e instanceof SdmqException) {
            log.warn("answering code 1: {}", e.getMessage());
            return OuqiangReply.failed(e.getMessage());
        }
        log.error("answering code 1 for an unexpected failure", e);
        return OuqiangReply.failed("internal error");
    }
}
