package io.sdmq.server.security;

import io.sdmq.server.config.SdmqProperties;
import io.sdmq.server.ui.UiCookie;
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
 * endpoint yet is guarded all the same. It leaves the caller's name and topic scope on the request for the routes.
 * On the dashboard's paths ({@code /ui}) the token may also come in its sign-in cookie ({@link UiCookie}), and a page
 * asked for without a valid one sends the browser to the sign-in page.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class AccessFilter extends OncePerRequestFilter {
    /**
     * Request attribute: the name of the caller's token ({@code sdmq.auth.tokens.<name>}, or {@code producer token 1}
     * for the legacy lists), never its value; {@value #ANONYMOUS} on a server with no tokens and on the open paths.
     */
    public static final String CALLER_NAME = "io.sdmq.server.security.callerName";
    /** Request attribute: the caller's {@link TopicScope}. */
    public static final String CALLER_SCOPE = "io.sdmq.server.security.callerScope";
    /**
     * Request attribute: {@link Boolean#TRUE} when the caller may act as an admin (every caller of an open server),
     * so that the dashboard shows its action buttons only to those whose actions would be taken.
     */
    public static final String CALLER_IS_ADMIN = "io.sdmq.server.security.callerIsAdmin";
    /** The caller's name when the server has no tokens. */
    public static final String ANONYMOUS = "anonymous";

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
        Optional<Role> needed = AccessRules.requiredRole(request.getMethod(), path);
        String caller = "address " + request.getRemoteAddr();
        request.setAttribute(CALLER_NAME, ANONYMOUS);
        request.setAttribute(CALLER_SCOPE, TopicScope.EVERY_TOPIC);
        request.setAttribute(CALLER_IS_ADMIN, rules.open());
        if (needed.isPresent() && !rules.open()) {
            Optional<Caller> known = rules.caller(token(request, path));
            if (known.isEmpty() && AccessRules.isUi(path) && "GET".equals(request.getMethod())) {
                response.sendRedirect(request.getContextPath() + "/ui/login");
                return;
            }
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
            request.setAttribute(CALLER_SCOPE, known.get().scope());
            request.setAttribute(CALLER_IS_ADMIN, known.get().may(Role.ADMIN));
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

    /** True when no token is configured: the REST API and the dashboard are open to everyone. */
    public boolean open() {
        return rules.open();
    }

    /**
     * The name of the caller holding {@code token} when it may sign in to the dashboard (a viewer or admin token, as
     * its pages need), checked as every request's token is; empty otherwise.
     */
    public Optional<String> dashboardCaller(String token) {
        return rules.caller(token).filter(c -> c.may(Role.VIEWER)).map(Caller::name);
    }

    private static String forbidden(Role needed) {
        if (needed == Role.VIEWER) {
            return "Authorization: this endpoint needs a viewer or admin token";
        }
        return needed == Role.ADMIN ? "Authorization: this endpoint needs an admin token"
                : "Authorization: this endpoint needs a " + needed.name().toLowerCase(Locale.ROOT) + " or admin token";
    }

    /** The bearer token, or on the dashboard's paths where there is none, its sign-in cookie. */
    private static String token(HttpServletRequest request, PathContainer path) {
        String bearer = bearerToken(request);
        return bearer == null && AccessRules.isUi(path) ? UiCookie.read(request) : bearer;
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
                    + "sdmq.auth.admin-token (e.g. SDMQ_AUTH_ADMIN_TOKEN=$(openssl rand -hex 32)), or name tokens "
                    + "with sdmq.auth.tokens.<name>.secret and .role.");
        } else {
            log.info("access control on: {} producer, {} consumer, {} admin and {} viewer token(s), {} of them scoped "
                    + "to topics", rules.count(Role.PRODUCER), rules.count(Role.CONSUMER), rules.count(Role.ADMIN),
                    rules.count(Role.VIEWER), rules.scoped());
        }
        for (String name : rules.shortTokens()) {
            log.warn("token \"{}\" is shorter than {} characters and easy to guess; use a long random one", name,
                    AccessRules.MIN_LENGTH);
        }
        if (pushLimit.perSecond() > 0) {
            log.info("push rate limit: {} requests per second per {}", pushLimit.perSecond(),
                    rules.open() ? "client address" : "token");
        }
    }
}
