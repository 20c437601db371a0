package io.sdmq.server.delivery;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;

/**
 * The Standard Webhooks symmetric signature of a request: for each secret ({@code whsec_} and the base64 of its key),
 * {@code v1,} and the base64 of HMAC-SHA256 over {@code <webhook-id>.<webhook-timestamp>.<body>}, the signatures
 * space-separated, so that a receiver rotating its secret accepts either. Never shows a key.
 */
final class WebhookSignature {
    static final String PREFIX = "whsec_";
    static final String RULE = "must be whsec_ followed by the base64 of 24..64 random bytes";
    private static final String ALGORITHM = "HmacSHA256";

    private final List<SecretKeySpec> keys;

    WebhookSignature(List<String> secrets) {
        this.keys = secrets.stream().map(s -> new SecretKeySpec(key(s), ALGORITHM)).toList();
    }

    /** The HMAC key of a secret; an IllegalArgumentException saying {@link #RULE}, never the secret, if it is none. */
    static byte[] key(String secret) {
        if (!secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException(RULE);
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(RULE);
        }
        if (key.length < 24 || key.length > 64) {
            throw new IllegalArgumentException(RULE);
        }
        return key;
    }

    /** The {@code webhook-signature} header of a request with that id, timestamp (epoch seconds) and body. */
    String sign(String id, long timestamp, byte[] body) {
        byte[] head = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        StringJoiner signatures = new StringJoiner(" ");
        try {
            for (SecretKeySpec key : keys) {
                Mac mac = Mac.getInstance(ALGORITHM);
                mac.init(key);
                mac.update(head);
                signatures.add("v1," + Base64.getEncoder().encodeToString(mac.doFinal(body)));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM, though every JVM has it", e);
        }
        return signatures.toString();
    }

    @Override
    public String toString() {
        return "WebhookSignature[" + keys.size() + " secrets]";
    }
}
