package io.sdmq.server.web;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.PayloadTooLargeException;
import io.sdmq.common.RestoreInProgressException;
import io.sdmq.common.SdmqException;
import io.sdmq.common.UnavailableException;
import org.apache.ibatis.exceptions.PersistenceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
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
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Maps every failure to the envelope with a real status. 4xx are logged at WARN, 5xx at ERROR; no stack trace,
 * SQL or class name reaches a client.
 */
@RestControllerAdvice
class ApiExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(PayloadTooLargeException.class)
    ResponseEntity<ApiResponse<Void>> tooLarge(PayloadTooLargeException e) {
        return client(HttpStatus.CONTENT_TOO_LARGE, e.getMessage());
    }

    @ExceptionHandler(InvalidRequestException.class)
    ResponseEntity<ApiResponse<Void>> invalid(InvalidRequestException e) {
        return client(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler(MessageNotFoundException.class)
    ResponseEntity<ApiResponse<Void>> notFound(MessageNotFoundException e) {
        return client(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler({MessageStateException.class, RestoreInProgressException.class})
    ResponseEntity<ApiResponse<Void>> conflict(SdmqException e) {
        return client(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ApiResponse<Void>> unreadable(HttpMessageNotReadableException e) {
        return client(HttpStatus.BAD_REQUEST, "body: must be a JSON object whose fields have the documented types");
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

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ApiResponse<Void>> noResource(NoResourceFoundException e) {
        return client(HttpStatus.NOT_FOUND, "no such endpoint");
    }

    @ExceptionHandler(UnavailableException.class)
    ResponseEntity<ApiResponse<Void>> unavailable(UnavailableException e) {
        log.error("answering 503: {}; the client may retry", e.getMessage());
        return ApiResponse.error(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
    }

    @ExceptionHandler({DataAccessException.class, PersistenceException.class})
    ResponseEntity<ApiResponse<Void>> storeDown(RuntimeException e) {
        log.error("answering 503: a backing store failed ({}); the client may retry", e.toString());
        return ApiResponse.error(HttpStatus.SERVICE_UNAVAILABLE, "Redis or MySQL is unavailable; retry later");
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
