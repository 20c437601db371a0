package io.sdmq.server.ui;

import org.springframework.stereotype.Component;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The dashboard's synchronizer tokens against cross-site request forgery: a form or htmx request that acts carries
 * the HMAC-SHA256 of the sign-in cookie's value under a random key this instance draws at start-up. Another site
 * can neither read the token (it is only in the pages) nor compute it (it knows neither the cookie nor the key). A
 * sign-in on an open server has no cookie: its token is the HMAC of the empty value. A restart draws a new key, so a
 * page rendered before it must be reloaded before it acts; so must a page rendered by another instance.
 */
@Component
public class CsrfTokens {
    /** The form field of the token. */
    public static final String FIELD = "_csrf";
    /** The request header of the token, which htmx sends ({@code hx-headers} on the page's body). */
    public static final String HEADER = "X-CSRF-Token";
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public CsrfTokens() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        this.key = new SecretKeySpec(random, ALGORITHM);
    }

    /** The token of a sign-in cookie's value ({@code null} on an open server). */
    public String tokenFor(String cookie) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            byte[] digest = mac.doFinal((cookie == null ? "" : cookie).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    /** True when {@code presented} is the token of {@code cookie}; compared in constant time. */
    public boolean matches(String cookie, String presented) {
        if (presented == null || presented.isEmpty()) {
            return false;
        }
        return MessageDigest.isEqual(tokenFor(cookie).getBytes(StandardCharsets.US_ASCII),
                presented.getBytes(StandardCharsets.UTF_8));
    }
}
