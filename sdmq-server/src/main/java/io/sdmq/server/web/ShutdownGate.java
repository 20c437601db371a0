package io.sdmq.server.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;

/**
 * Refuses every request that arrives once a shutdown began (the context's close, before any lifecycle stops) with a
 * 503 and {@code Connection: close}, so a client retries on another instance while the requests already inside run
 * to their end. Runs after the observation filter, so the refusals show in {@code http.server.requests}; they are not
 * logged one by one, the start of the refusals is.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 3)
class ShutdownGate extends OncePerRequestFilter implements ApplicationListener<ContextClosedEvent> {
    private static final Logger log = LoggerFactory.getLogger(ShutdownGate.class);
    static final String SHUTTING_DOWN = "server: shutting down; retry on another instance";

    private final JsonMapper json;
    private volatile boolean closed;

    ShutdownGate(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        closed = true;
        log.info("shutting down: new requests are answered 503; the ones inside run to their end");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!closed) {
            chain.doFilter(request, response);
            return;
        }
        response.setHeader(HttpHeaders.CONNECTION, "close");
        response.setHeader(HttpHeaders.RETRY_AFTER, "1");
        ApiResponse.write(response, json, HttpStatus.SERVICE_UNAVAILABLE, SHUTTING_DOWN);
    }
}
