package io.sdmq.server.security;

import io.sdmq.server.config.SdmqProperties;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which role each path needs, and which roles and topics each configured bearer token holds. A path not listed needs
 * the admin role, so a new endpoint is closed until it is given a role here. The viewer's paths are read with GET
 * only; any other method on them needs the admin role.
 */
final class AccessRules {

    enum Role { PRODUCER, CONSUMER, ADMIN, VIEWER }

    /**
     * A caller that presented a configured token: its roles, a name for it that is not the token, and the topics it
     * may act on.
     */
    record Caller(String name, Set<Role> roles, TopicScope scope) {
        boolean may(Role needed) {
            return roles.contains(needed) || roles.contains(Role.ADMIN);
        }
    }

    private record Token(byte[] digest, Role role, String name, boolean tooShort, TopicScope scope) {
    }

    /** Tokens shorter than this are easy to guess; the start-up log warns about them. */
    static final int MIN_LENGTH = 16;

    /** Open too: the dashboard's sign-in and sign-out, its style sheet and scripts, and the WebJars it loads. */
    private static final List<PathPattern> OPEN = patterns("/actuator/health/**", "/v3/api-docs/**",
            "/swagger-ui/**", "/swagger-ui.html", "/ui/login", "/ui/logout", "/ui/*.css", "/ui/*.js", "/webjars/**");
    /** The dashboard: its pages are the viewer's, its actions (POST) the admin's, as for the REST routes. */
    private static final List<PathPattern> UI = patterns("/ui", "/ui/**");
    private static final List<PathPattern> PUSH =
            patterns("/push", "/push/batch", "/compat/ouqiang/push", "/compat/sdmq/push");
    /** The native routes, then the compatibility routes with the role of their native counterparts. */
    private static final List<PathPattern> PRODUCER = patterns("/push", "/push/batch", "/delete", "/reschedule",
            "/compat/ouqiang/push", "/compat/ouqiang/delete", "/compat/sdmq/push", "/compat/sdmq/delete");
    private static final List<PathPattern> CONSUMER = patterns("/get/{topic}", "/finish", "/nack", "/touch",
            "/compat/ouqiang/pop", "/compat/ouqiang/finish");
    /**
     * What a viewer reads with GET: a message, metrics, topics, their stats and series, the search, the instances,
     * the progress of the latest restore, and the dashboard's pages.
     */
    private static final List<PathPattern> VIEWER = patterns("/job/{id}", "/actuator/prometheus",
            "/actuator/metrics", "/actuator/metrics/{name}", "/topics", "/topics/{topic}", "/topics/{topic}/stats",
            "/topics/{topic}/series", "/messages", "/instances", "/reStore/progress", "/ui", "/ui/**");

    private final List<Token> tokens = new ArrayList<>();

    AccessRules(SdmqProperties.Auth auth) {
        add(Role.PRODUCER, auth.producerToken());
        add(Role.CONSUMER, auth.consumerToken());
        add(Role.ADMIN, auth.adminToken());
        auth.tokens().forEach((name, token) -> tokens.add(new Token(sha256(token.secret()),
                Role.valueOf(token.role().toUpperCase(Locale.ROOT)), name, token.secret().length() < MIN_LENGTH,
                TopicScope.of(token.topics()))));
    }

    /** True when no token is configured: every path is open to everyone. */
    boolean open() {
        return tokens.isEmpty();
    }

    /**
     * The role a request for {@code path} needs: the path within the application as the dispatcher routes it, its
     * segments decoded once (see {@code ServletRequestPathUtils}). Empty for the paths open to everyone: health and
     * the API documentation.
     */
    static Optional<Role> requiredRole(String method, PathContainer path) {
        if (matches(OPEN, path)) {
            return Optional.empty();
        }
        if ("GET".equals(method) && matches(VIEWER, path)) {
            return Optional.of(Role.VIEWER);
        }
        if (matches(PRODUCER, path)) {
            return Optional.of(Role.PRODUCER);
        }
        return Optional.of(matches(CONSUMER, path) ? Role.CONSUMER : Role.ADMIN);
    }

    /** True for the dashboard's paths, where the token may come in its cookie. */
    static boolean isUi(PathContainer path) {
        return matches(UI, path);
    }

    /** True for the paths the push rate limit counts. */
    static boolean isPush(PathContainer path) {
        return matches(PUSH, path);
    }

    /**
     * The caller holding {@code presented}, or empty when it matches no configured token. Every configured token is
     * compared, in constant time on SHA-256 digests, so the time taken tells nothing about any of them. A named
     * token's secret is its own (checked at start-up), so only the legacy lists can give one secret several roles,
     * and those are never scoped.
     */
    Optional<Caller> caller(String presented) {
        if (presented == null || presented.isEmpty()) {
            return Optional.empty();
        }
        byte[] digest = sha256(presented);
        Set<Role> roles = EnumSet.noneOf(Role.class);
        Token first = null;
        for (Token token : tokens) {
            if (MessageDigest.isEqual(token.digest(), digest)) {
                roles.add(token.role());
                first = first == null ? token : first;
            }
        }
        return first == null ? Optional.empty() : Optional.of(new Caller(first.name(), roles, first.scope()));
    }

    /** How many tokens a role has, for the start-up log; never the tokens themselves. */
    long count(Role role) {
        return tokens.stream().filter(t -> t.role() == role).count();
    }

    /** How many tokens are scoped to some topics, for the start-up log. */
    long scoped() {
        return tokens.stream().filter(t -> !t.scope().everyTopic()).count();
    }

    /** The names (never the values) of the tokens shorter than {@link #MIN_LENGTH} characters. */
    List<String> shortTokens() {
        return tokens.stream().filter(Token::tooShort).map(Token::name).toList();
    }

    private void add(Role role, List<String> configured) {
        for (int i = 0; i < configured.size(); i++) {
            String token = configured.get(i);
            String name = role.name().toLowerCase(Locale.ROOT) + " token " + (i + 1);
            tokens.add(new Token(sha256(token), role, name, token.length() < MIN_LENGTH, TopicScope.EVERY_TOPIC));
        }
    }

    private static boolean matches(List<PathPattern> patterns, PathContainer path) {
        return patterns.stream().anyMatch(p -> p.matches(path));
    }

    private static List<PathPattern> patterns(String... paths) {
        return List.of(paths).stream().map(PathPatternParser.defaultInstance::parse).toList();
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
