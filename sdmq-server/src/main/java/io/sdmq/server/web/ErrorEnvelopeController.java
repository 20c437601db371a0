package io.sdmq.server.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page Tomcat forwards to when a filter or servlet fails or sends an error outside Spring MVC's handlers,
 * in place of Spring Boot's: the envelope. Asked for directly, it is no endpoint.
 */
@RestController
class ErrorEnvelopeController implements ErrorController {
    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ApiResponse<Void>> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer c ? HttpStatus.resolve(c) : HttpStatus.NOT_FOUND;
        if (status == null || !status.isError()) {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
        }
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        // the method is not the client's: Tomcat dispatches to an error page with GET
        String message = RefusedRequests.message(status.value(), null,
                uri instanceof String s ? s : request.getRequestURI(), false);
        RefusedRequests.logAnswer(status.value(), message);
        return ApiResponse.error(status, message);
    }
}
