package io.sdmq.server.ui;

import io.sdmq.common.SdmqException;
import io.sdmq.common.UnavailableException;
import io.sdmq.server.security.AccessFilter;
import io.sdmq.server.web.ApiExceptionHandler;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.servlet.ModelAndView;

/**
 * What every dashboard page has (its {@link Viewer}), and sdmq's errors shown in the page as the REST API words them
 * ("field: rule"), with the same status: in the place of the result for an htmx request, as a page otherwise. Ahead of
 * the REST API's envelope for the dashboard's controllers only.
 */
@ControllerAdvice(basePackageClasses = UiAdvice.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class UiAdvice {
    private static final Logger log = LoggerFactory.getLogger(UiAdvice.class);

    private final CsrfTokens tokens;
    private final AccessFilter access;
    private final ApiExceptionHandler errors;

    UiAdvice(CsrfTokens tokens, AccessFilter access, ApiExceptionHandler errors) {
        this.tokens = tokens;
        this.access = access;
        this.errors = errors;
    }

    @ModelAttribute("ui")
    Viewer viewer(HttpServletRequest request) {
        return Viewer.of(request, tokens, access.open());
    }

    @ExceptionHandler(SdmqException.class)
    ModelAndView sdmq(SdmqException e, HttpServletRequest request) {
        HttpStatus status = errors.statusOf(e);
        if (e instanceof UnavailableException || status.is5xxServerError()) {
            log.error("dashboard: answering {}: {}; the operator may retry", status.value(), e.getMessage());
        } else {
            log.warn("dashboard: answering {}: {}", status.value(), e.getMessage());
        }
        boolean htmx = request.getHeader("HX-Request") != null;
        ModelAndView page = new ModelAndView(htmx ? "ui/layout :: result" : "ui/error", status);
        page.addObject("ui", viewer(request));
        page.addObject("error", e.getMessage());
        return page;
    }
}
