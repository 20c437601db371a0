package io.sdmq.server.security;

import io.sdmq.server.config.SdmqProperties;
import io.sdmq.server.security.AccessRules.Caller;
import io.sdmq.server.security.AccessRules.Role;
import io.sdmq.server.web.ApiResponse;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ServletRequestPathUtils;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.Locale;
import java.util.Optional;

/**
 * Bearer-token access control and the push rate limit, in front of every path. Runs after the observation filter,
 * so rejected requests still show in {@code http.server.requests}, and before the dispatcher, so a path that has no
 * endpoint yet is guarded all the same.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class AccessFilter extends OncePerRequestFilter {
    /**
     * The request attribute holding the caller's name, a String: its token's name, or {@code "anonymous"} when the
     * server has no tokens. The bulk actions write it in the status log.
     */
    public static final String CALLER_NAME = AccessFilter.class.getName() + ".CALLER_NAME";
    private static final String ANONYMOUS = "anonymous";
    private static final Logger log = LoggerFactory.getLogger(AccessFilter.class);
    private static final String BEARER = "Bearer ";

    private final AccessRules rules;
    private final PushRateLimit pushLimit;
    private final JsonMapper json;

    AccessFilter(SdmqProperties properties, JsonMapper json) {
        this.rules = new AccessRules(properties.auth());
        this.pushLimit = new PushRateLimit(properties.limits().pushPerSecond());
        this.json = json;
        logSettings();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        PathContainer path = ServletRequestPathUtils.parseAndCache(request).pathWithinApplication();
        Optional<Role> needed = AccessRules.requiredRole(path);
        String caller = "address " + request.getRemoteAddr();
        if (needed.isPresent() && !rules.open()) {
            Optional<Caller> known = rules.caller(bearerToken(request));
            if (known.isEmpty()) {
                response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                reject(request, response, HttpStatus.UNAUTHORIZED, "Authorization: a valid bearer token is required");
                return;
            }
            if (!known.get().may(needed.get())) {
                reject(request, response, HttpStatus.FORBIDDEN, forbidden(needed.get()));
                return;
            }
            caller = known.get().name();
            request.setAttribute(CALLER_NAME, caller);
        } else {
            request.setAttribute(CALLER_NAME, ANONYMOUS);
        }
        if (AccessRules.isPush(path) && !pushLimit.tryAcquire(caller)) {
            // not logged: a producer over its limit would flood the log; http.server.requests counts the 429s
            response.setHeader(HttpHeaders.RETRY_AFTER, "1");
            ApiResponse.write(response, json, HttpStatus.TOO_MANY_REQUESTS, "rate limit: at most "
                    + pushLimit.perSecond() + " push requests per second (sdmq.limits.push-per-second); retry later");
            return;
        }
        chain.doFilter(request, response);
    }

    private static String forbidden(Role needed) {
        return needed == Role.ADMIN ? "Authorization: this endpoint needs an admin token"
                : "Authorization: this endpoint needs a " + needed.name().toLowerCase(Locale.ROOT) + " or admin token";
    }

    private static String bearerToken(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return header.substring(BEARER.length()).strip();
    }

    private void reject(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String message)
            throws IOException {
        log.warn("answering {} to {} {} from {}: {}", status.value(), request.getMethod(), request.getRequestURI(),
                request.getRemoteAddr(), message);
        ApiResponse.write(response, json, status, message);
    }

    private void logSettings() {
        if (rules.open()) {
            log.warn("sdmq is OPEN: no sdmq.auth.*-token is set, so anyone who can reach this port may push, consume "
                    + "and administer. To close it, set sdmq.auth.producer-token, sdmq.auth.consumer-token and "
                    + "sdmq.auth.admin-token (e.g. SDMQ_AUTH_ADMIN_TOKEN=$(openssl rand -hex 32)).");
        } else {
            log.info("access control on: {} producer, {} consumer and {} admin token(s)", rules.count(Role.PRODUCER),
                    rules.count(Role.CONSUMER), rules.count(Role.ADMIN));
        }
        for (String name : rules.shortTokens()) {
            log.warn("the {} is shorter than {} characters and easy to guess; use a long random one", name,
                    AccessRules.MIN_LENGTH);
        }
        if (pushLimit.perSecond() > 0) {
            log.info("push rate limit: {} requests per second per {}", pushLimit.perSecond(),
                    rules.open() ? "client address" : "token");
        }
    }
}
