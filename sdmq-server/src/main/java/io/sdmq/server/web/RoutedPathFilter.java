package io.sdmq.server.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ServletRequestPathUtils;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;

/**
 * Parses the request path as the dispatcher routes it, for the filters after this one (access control) and the
 * dispatcher, and answers 400 when it cannot: Tomcat strips path parameters ({@code ;name=value}) before it checks
 * the escapes of a path, so a broken escape in one reaches the application, where Spring cannot decode it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class RoutedPathFilter extends OncePerRequestFilter {
    private final JsonMapper json;

    RoutedPathFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            ServletRequestPathUtils.parseAndCache(request);
        } catch (IllegalArgumentException e) {
            String message = RefusedRequests.pathRule(request.getRequestURI());
            RefusedRequests.logAnswer(HttpStatus.BAD_REQUEST.value(), message);
            ApiResponse.write(response, json, HttpStatus.BAD_REQUEST, message);
            return;
        }
        chain.doFilter(request, response);
    }
}
