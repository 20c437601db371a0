package io.sdmq.server;

import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Random rewrites of a raw request target, path and query: characters percent-encoded (upper or lower case hex),
 * escapes encoded twice, truncation, and inserted pieces that servers and proxies are known to disagree on (encoded
 * slashes and backslashes, NUL, overlong and truncated UTF-8, dot segments, path parameters, broken escapes, stray
 * delimiters). Every character stays one byte on the wire; no raw space, CR or LF, so the request line stays the
 * three parts of an HTTP/1.1 request line.
 */
final class RandomEncodings {
    private static final List<String> PIECES = List.of("%2F", "%2f", "%5C", "%5c", "\\", "%00", "%C0%AF",
            "%E0%80%AF", "%C0%AE", "%FF", "%E2%82", "%C3%A9", "\u00e9", "%", "%4", "%zz", "%25", "%2525", "/..", "/.",
            "//", "/../..", "..", "/x", ";x=1", ";", "%2e%2e", ".%2E", "%0D%0A", "%09", "%20", "+", "?", "#", "&", "=",
            "&&", "%3F", "%23", "%26", "%3D", "~", "*", "{x}", "\"", "<", "|", "%7F", "%1F", "\u007f", "9999999999999");

    private final Random random;

    RandomEncodings(long seed) {
        this.random = new Random(seed);
    }

    /** {@code target} rewritten one to three times. */
    String mutate(String target) {
        String mutated = target;
        for (int i = random.nextInt(3); i >= 0; i--) {
            mutated = rewriteOnce(mutated);
        }
        return mutated;
    }

    private String rewriteOnce(String target) {
        int at = random.nextInt(target.length() + 1);
        String piece = PIECES.get(random.nextInt(PIECES.size()));
        return switch (random.nextInt(5)) {
            case 0 -> target.substring(0, at) + piece + target.substring(at);
            case 1 -> at == target.length() ? target : target.substring(0, at) + piece + target.substring(at + 1);
            case 2 -> target.substring(0, at) + encoded(target.substring(at));
            case 3 -> target.substring(0, at) + target.substring(at).replaceFirst("%", "%25");
            default -> target.substring(0, Math.max(1, at));
        };
    }

    /** {@code rest} with its first character percent-encoded, in upper or lower case hex. */
    private String encoded(String rest) {
        if (rest.isEmpty()) {
            return rest;
        }
        String hex = String.format("%%%02X", (int) rest.charAt(0) & 0xFF);
        return (random.nextBoolean() ? hex : hex.toLowerCase(Locale.ROOT)) + rest.substring(1);
    }
}
