package io.sdmq.server.web;

import io.sdmq.common.ForbiddenTopicException;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.PayloadTooLargeException;
import io.sdmq.common.RestoreInProgressException;
import io.sdmq.common.SdmqException;
import io.sdmq.common.TooManyRequestsException;
import io.sdmq.common.UnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;

import java.util.stream.Collectors;

/**
 * Maps every failure to the envelope with a real status. 4xx are logged at WARN, 5xx at ERROR; no stack trace,
 * SQL or class name reaches a client.
 */
@RestControllerAdvice
public class ApiExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    /** The status each of sdmq's own errors answers with. */
    public HttpStatus statusOf(SdmqException e) {
        if (e instanceof PayloadTooLargeException) {
            return HttpStatus.CONTENT_TOO_LARGE;
        }
        if (e instanceof InvalidRequestException) {
            return HttpStatus.BAD_REQUEST;
        }
        if (e instanceof MessageNotFoundException) {
            return HttpStatus.NOT_FOUND;
        }
        if (e instanceof MessageStateException || e instanceof RestoreInProgressException) {
            return HttpStatus.CONFLICT;
        }
        if (e instanceof TooManyRequestsException) {
            return HttpStatus.TOO_MANY_REQUESTS;
        }
        if (e instanceof ForbiddenTopicException) {
            return HttpStatus.FORBIDDEN;
        }
        return HttpStatus.SERVICE_UNAVAILABLE;
    }

    @ExceptionHandler(SdmqException.class)
    ResponseEntity<ApiResponse<Void>> sdmq(SdmqException e) {
        HttpStatus status = statusOf(e);
        if (e instanceof UnavailableException || status.is5xxServerError()) {
            log.error("answering {}: {}; the client may retry", status.value(), e.getMessage());
            return ApiResponse.error(status, e.getMessage());
        }
        return client(status, e.getMessage());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ApiResponse<Void>> unreadable(HttpMessageNotReadableException e) {
        if (e.getCause() instanceof JacksonException json && !json.getPath().isEmpty()) {
            String field = json.getPath().stream()
                    .map(ref -> ref.getPropertyName() != null ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
                    .collect(Collectors.joining(".")).replace(".[", "[");
            String rule = ": is unknown or has the wrong type";
            return client(HttpStatus.BAD_REQUEST, field.startsWith("[") ? "messages: " + field + rule : field + rule);
        }
        return client(HttpStatus.BAD_REQUEST, "body: must be well-formed JSON of the documented shape");
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<ApiResponse<Void>> missing(MissingServletRequestParameterException e) {
        return client(HttpStatus.BAD_REQUEST, e.getParameterName() + ": is required");
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ApiResponse<Void>> mismatch(MethodArgumentTypeMismatchException e) {
        String type = e.getRequiredType() == null ? "value" : e.getRequiredType().getSimpleName().toLowerCase();
        return client(HttpStatus.BAD_REQUEST, e.getName() + ": must be a valid " + type);
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ApiResponse<Void>> mediaType(HttpMediaTypeNotSupportedException e) {
        return client(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type: must be application/json");
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<ApiResponse<Void>> notAcceptable(HttpMediaTypeNotAcceptableException e) {
        return client(HttpStatus.NOT_ACCEPTABLE, "Accept: must allow application/json");
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ApiResponse<Void>> method(HttpRequestMethodNotSupportedException e) {
        return client(HttpStatus.METHOD_NOT_ALLOWED, "method " + e.getMethod() + " is not allowed here");
    }

    /** Tomcat could not decode the query (or form) parameters, or there were too many. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ApiResponse<Void>> badParameters(InvalidParameterException e, HttpServletRequest request) {
        if (e.getErrorCode() == HttpStatus.CONTENT_TOO_LARGE.value()) {
            return client(HttpStatus.CONTENT_TOO_LARGE, "parameters: too many, or a form body too large");
        }
        return client(HttpStatus.BAD_REQUEST, RefusedRequests.queryRule(request.getQueryString()));
    }

    /**
     * Spring Boot's health endpoint fails an assertion, instead of answering 404, on a path below a component or group
     * that does not exist (e.g. {@code /actuator/health/x/y}); any other illegal state is a failure of ours.
     */
    @ExceptionHandler(IllegalStateException.class)
    ResponseEntity<ApiResponse<Void>> illegalState(IllegalStateException e, HttpServletRequest request) {
        if (request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof String pattern
                && pattern.endsWith("/health/**")) {
            return client(HttpStatus.NOT_FOUND, RefusedRequests.NO_SUCH_ENDPOINT);
        }
        return unexpected(e);
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ApiResponse<Void>> noResource(NoResourceFoundException e) {
        return client(HttpStatus.NOT_FOUND, RefusedRequests.NO_SUCH_ENDPOINT);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ApiResponse<Void>> unexpected(Exception e) {
        log.error("answering 500 for an unexpected failure", e);
        return ApiResponse.error(HttpStatus.INTERNAL_SERVER_ERROR, "internal error");
    }

    private static ResponseEntity<ApiResponse<Void>> client(HttpStatus status, String message) {
        log.warn("answering {}: {}", status.value(), message);
        return ApiResponse.error(status, message);
    }
}
