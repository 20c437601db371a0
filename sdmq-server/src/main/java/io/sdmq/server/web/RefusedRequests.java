package io.sdmq.server.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The messages of error replies that no controller wrote: a request Tomcat refused before the application saw it, or
 * an error status whose body nobody wrote. Each names the part of the request and the rule it broke; none echoes
 * what Tomcat said, which may name its classes.
 */
final class RefusedRequests {
    private static final Logger log = LoggerFactory.getLogger(RefusedRequests.class);
    static final String NO_SUCH_ENDPOINT = "no such endpoint";
    /** A parameter name that may be quoted in a message (and so in the log) as it is. */
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private RefusedRequests() {
    }

    /**
     * The message for an error reply of {@code status} to {@code method} (null when unknown) on {@code target} (the
     * raw path, as sent); {@code refusedByTomcat} when the request never reached the application.
     */
    static String message(int status, String method, String target, boolean refusedByTomcat) {
        if (status == HttpStatus.BAD_REQUEST.value() && refusedByTomcat) {
            return pathRule(target);
        }
        if (status == HttpStatus.NOT_FOUND.value()) {
            return NO_SUCH_ENDPOINT;
        }
        if (status == HttpStatus.METHOD_NOT_ALLOWED.value()) {
            return method == null ? "method: not allowed here" : "method " + method + " is not allowed here";
        }
        HttpStatus known = HttpStatus.resolve(status);
        if (known == null || known.is5xxServerError()) {
            return "internal error";
        }
        return "request: " + known.getReasonPhrase().toLowerCase(Locale.ROOT);
    }

    /** Logs an error reply as every reply of sdmq's is: 4xx at WARN, 5xx at ERROR. */
    static void logAnswer(int status, String message) {
        if (status >= 500) {
            log.error("answering {}: {}", status, message);
        } else {
            log.warn("answering {}: {}", status, message);
        }
    }

    /** The rule a raw request path breaks, for the ones Tomcat refuses. */
    static String pathRule(String target) {
        if (target == null) {
            return "request target: must hold only the characters RFC 3986 allows, the others percent-encoded";
        }
        if (!target.startsWith("/")) {
            return "path: must start with /";
        }
        String upper = target.toUpperCase(Locale.ROOT);
        if (upper.contains("%2F")) {
            return "path: must not contain an encoded slash (%2F)";
        }
        if (upper.contains("%5C") || target.indexOf('\\') >= 0) {
            return "path: must not contain a backslash, encoded (%5C) or not";
        }
        if (upper.contains("%00")) {
            return "path: must not contain an encoded NUL (%00)";
        }
        byte[] decoded = percentDecoded(target);
        if (decoded == null) {
            return "path: each % must start an escape of two hex digits";
        }
        String text = utf8(decoded);
        if (text == null) {
            return "path: must be UTF-8 once percent-decoded (no overlong or truncated sequences)";
        }
        if (climbsAboveRoot(text)) {
            return "path: must not climb above the root with .. segments";
        }
        return "path: must hold only the characters RFC 3986 allows, the others percent-encoded";
    }

    /** The rule the query string breaks when Tomcat cannot decode its parameters, naming the first bad one. */
    static String queryRule(String query) {
        for (String pair : query == null ? new String[0] : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = decoded(equals < 0 ? pair : pair.substring(0, equals));
            if (name == null) {
                return "query: each parameter name must be percent-encoded UTF-8";
            }
            if (name.isEmpty() && equals >= 0) {
                return "query: each parameter must have a name before its =";
            }
            if (equals >= 0 && decoded(pair.substring(equals + 1)) == null) {
                return (PLAIN_NAME.matcher(name).matches() ? name : "query") + ": must be percent-encoded UTF-8";
            }
        }
        return "parameters: too many, or not percent-encoded UTF-8 (in the query or a form body)";
    }

    private static String decoded(String text) {
        byte[] bytes = percentDecoded(text);
        return bytes == null ? null : utf8(bytes);
    }

    /** The bytes {@code text} stands for, or null when a % does not start two hex digits. */
    private static byte[] percentDecoded(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '%') {
                out.write(c);
                continue;
            }
            int high = i + 1 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
            int low = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
            if (high < 0 || low < 0) {
                return null;
            }
            out.write(high * 16 + low);
            i += 2;
        }
        return out.toByteArray();
    }

    /** {@code bytes} as UTF-8, or null when they are not well-formed UTF-8 (overlong forms included). */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean climbsAboveRoot(String path) {
        int depth = 0;
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                depth--;
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                depth++;
            }
            if (depth < 0) {
                return true;
            }
        }
        return false;
    }
}
