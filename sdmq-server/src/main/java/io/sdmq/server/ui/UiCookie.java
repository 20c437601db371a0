package io.sdmq.server.ui;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseCookie;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The dashboard's sign-in cookie: the token itself (in Base64url, so that any token is a valid cookie value),
 * {@code HttpOnly} (no script reads it), {@code SameSite=Strict} (no other site's page sends it), {@code Path=/ui}
 * (the REST API never takes it), {@code Secure} when the request came over HTTPS, and gone when the browser closes.
 * The token is never written into a page, a URL or a log.
 */
public final class UiCookie {
    /** The cookie's name. */
    public static final String NAME = "sdmq_ui";
    private static final String PATH = "/ui";

    private UiCookie() {
    }

    /** The {@code Set-Cookie} value that signs the browser in with {@code token}. */
    public static String signIn(String token, boolean secure) {
        String value = Base64.getUrlEncoder().withoutPadding().encodeToString(token.getBytes(StandardCharsets.UTF_8));
        return cookie(value, secure).build().toString();
    }

    /** The {@code Set-Cookie} value that signs the browser out: the cookie emptied and expired. */
    public static String signOut(boolean secure) {
        return cookie("", secure).maxAge(0).build().toString();
    }

    /** The token the request's cookie holds, or null when it has none (or an empty or malformed one). */
    public static String read(HttpServletRequest request) {
        String value = value(request);
        if (value == null) {
            return null;
        }
        try {
            return new String(Base64.getUrlDecoder().decode(value), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The cookie's value as the browser sent it, or null when it has none or an empty one. */
    static String value(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return null;
        }
        for (Cookie cookie : cookies) {
            if (NAME.equals(cookie.getName()) && !cookie.getValue().isEmpty()) {
                return cookie.getValue();
            }
        }
        return null;
    }

    private static ResponseCookie.ResponseCookieBuilder cookie(String value, boolean secure) {
        return ResponseCookie.from(NAME, value).httpOnly(true).sameSite("Strict").path(PATH).secure(secure);
    }
}
