package io.sdmq.server.web;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The envelope of every reply: {@code code} equals the HTTP status, so sdmq clients that test
 * {@code code == 200} keep working.
 */
public record ApiResponse<T>(boolean success, int code, String message, T data) {

    public static <T> ResponseEntity<ApiResponse<T>> ok(T data) {
        return ok(data, null);
    }

    public static <T> ResponseEntity<ApiResponse<T>> ok(T data, String message) {
        return ResponseEntity.ok(new ApiResponse<>(true, 200, message, data));
    }

    public static ResponseEntity<ApiResponse<Void>> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(new ApiResponse<>(false, status.value(), message, null));
    }
}
