package io.sdmq.server.ui;

import io.sdmq.server.web.ApiResponse;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.Set;

/**
 * Refuses (403) a dashboard request that acts (any method but GET and HEAD) without the synchronizer token of its
 * sign-in cookie ({@link CsrfTokens}), in the form field {@value CsrfTokens#FIELD} or the header
 * {@value CsrfTokens#HEADER}. Runs after the access filter, which has already refused a caller without the admin
 * role; signing in and out need no token (neither acts on the queue).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class CsrfFilter extends OncePerRequestFilter {
    private static final Logger log = LoggerFactory.getLogger(CsrfFilter.class);
    private static final Set<String> READS = Set.of("GET", "HEAD");
    private static final PathPattern UI = PathPatternParser.defaultInstance.parse("/ui/**");
    private static final PathPattern SIGN_IN_AND_OUT =
            PathPatternParser.defaultInstance.parse("/ui/{log:login|logout}");

    private final CsrfTokens tokens;
    private final JsonMapper json;

    CsrfFilter(CsrfTokens tokens, JsonMapper json) {
        this.tokens = tokens;
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // the path as the dispatcher routes it (segments decoded), as the access filter matches it
        PathContainer path = ServletRequestPathUtils.parseAndCache(request).pathWithinApplication();
        return !UI.matches(path) || READS.contains(request.getMethod()) || SIGN_IN_AND_OUT.matches(path);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String presented = request.getHeader(CsrfTokens.HEADER);
        if (presented == null) {
            presented = request.getParameter(CsrfTokens.FIELD);
        }
        if (!tokens.matches(UiCookie.value(request), presented)) {
            String message = CsrfTokens.FIELD + ": missing or not this sign-in's; reload the page and try again";
            log.warn("answering 403 to {} {} from {}: {}", request.getMethod(), request.getRequestURI(),
                    request.getRemoteAddr(), message);
            ApiResponse.write(response, json, HttpStatus.FORBIDDEN, message);
            return;
        }
        chain.doFilter(request, response);
    }
}
