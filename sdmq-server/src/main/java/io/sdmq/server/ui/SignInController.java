package io.sdmq.server.ui;

import io.sdmq.server.security.AccessFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.Optional;

/**
 * Signing in to the dashboard with a viewer or admin token, checked by the access filter's own rules, and out. The
 * token comes in a form body, goes back only in the {@link UiCookie}, and is never logged.
 */
@Controller
class SignInController {
    private static final Logger log = LoggerFactory.getLogger(SignInController.class);

    private final AccessFilter access;

    SignInController(AccessFilter access) {
        this.access = access;
    }

    @GetMapping("/ui")
    String home() {
        return "redirect:/ui/topics";
    }

    @GetMapping("/ui/login")
    String form(Model model) {
        if (access.open()) {
            return "redirect:/ui/topics";
        }
        return "ui/login";
    }

    @PostMapping("/ui/login")
    String signIn(@RequestParam(required = false) String token, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        Optional<String> caller = token == null ? Optional.empty() : access.dashboardCaller(token.strip());
        if (caller.isEmpty()) {
            log.warn("dashboard: a sign-in from {} was refused: not a viewer or admin token", request.getRemoteAddr());
            response.setStatus(HttpStatus.UNAUTHORIZED.value());
            model.addAttribute("error", "token: is not a viewer or admin token of this server");
            return "ui/login";
        }
        log.info("dashboard: {} signed in from {}", caller.get(), request.getRemoteAddr());
        response.addHeader(HttpHeaders.SET_COOKIE, UiCookie.signIn(token.strip(), request.isSecure()));
        return "redirect:/ui/topics";
    }

    @PostMapping("/ui/logout")
    String signOut(HttpServletRequest request, HttpServletResponse response) {
        response.addHeader(HttpHeaders.SET_COOKIE, UiCookie.signOut(request.isSecure()));
        return "redirect:/ui/login";
    }
}
