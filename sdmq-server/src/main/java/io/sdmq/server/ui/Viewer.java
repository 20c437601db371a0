package io.sdmq.server.ui;

import io.sdmq.server.security.AccessFilter;
import io.sdmq.server.security.TopicScope;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Who is looking at a dashboard page, as the access filter found them, and what every page renders for them.
 *
 * @param caller the caller's token name, never the token ({@code anonymous} on an open server)
 * @param admin  whether the page shows the action buttons: the caller's actions would be taken
 * @param open   the server has no tokens: anyone who reaches it may act, which every page says
 * @param scope  the topics the caller may see and act on, as text ("every topic" or the patterns)
 * @param csrf   the synchronizer token of the caller's sign-in, for forms and htmx requests
 */
record Viewer(String caller, boolean admin, boolean open, String scope, String csrf) {

    static Viewer of(HttpServletRequest request, CsrfTokens tokens, boolean open) {
        Object name = request.getAttribute(AccessFilter.CALLER_NAME);
        return new Viewer(name == null ? AccessFilter.ANONYMOUS : name.toString(),
                Boolean.TRUE.equals(request.getAttribute(AccessFilter.CALLER_IS_ADMIN)), open,
                TopicScope.current().toString(), tokens.tokenFor(UiCookie.value(request)));
    }

    /** The {@code hx-headers} of every page's body: htmx sends the CSRF token with each of its requests. */
    public String htmxHeaders() {
        return "{\"" + CsrfTokens.HEADER + "\": \"" + csrf + "\"}";
    }
}
