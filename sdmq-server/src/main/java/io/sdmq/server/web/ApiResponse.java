package io.sdmq.server.web;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;

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

    /** 202: the work was started and goes on after the reply; {@code data} says where it stands. */
    public static <T> ResponseEntity<ApiResponse<T>> accepted(T data) {
        HttpStatus accepted = HttpStatus.ACCEPTED;
        return ResponseEntity.status(accepted).body(new ApiResponse<>(true, accepted.value(), null, data));
    }

    public static ResponseEntity<ApiResponse<Void>> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(new ApiResponse<>(false, status.value(), message, null));
    }

    /** Writes the error envelope to {@code response} itself, for a filter that answers before Spring MVC. */
    public static void write(HttpServletResponse response, JsonMapper json, HttpStatus status, String message)
            throws IOException {
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream().write(json.writeValueAsBytes(new ApiResponse<>(false, status.value(), message,
                null)));
    }
}
