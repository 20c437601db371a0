package io.sdmq.server.ui;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.core.Admin;
import io.sdmq.core.BulkFilter;
import io.sdmq.core.MessageSearch;
import io.sdmq.server.security.TopicGuard;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;

/**
 * The Dead letters page (DEAD and EXPIRED messages, a topic at a time) and the bulk actions by filter of
 * {@code /messages/requeue}, {@code /messages/delete} and {@code /messages/run-now}, each behind a confirmation
 * step that says what it will do; a filter is checked by the same rules as there, nothing changed when it is bad.
 */
@Controller
class BulkPages {
    private final Admin admin;
    private final TopicGuard guard;
    private final MessagePages messages;

    BulkPages(Admin admin, TopicGuard guard, MessagePages messages) {
        this.admin = admin;
        this.guard = guard;
        this.messages = messages;
    }

    @GetMapping("/ui/dead")
    String dead(DeadForm form, Model model) {
        model.addAttribute("form", form);
        if (UiForms.text(form.topic()) != null) {
            String status = "EXPIRED".equals(UiForms.text(form.status())) ? "EXPIRED" : "DEAD";
            MessagePages.Page page = messages.page(new MessageSearch(form.topic().strip(), status, null, null, null,
                    "50", UiForms.text(form.cursor())));
            model.addAttribute("page", page);
            model.addAttribute("next", MessagePages.next("/ui/dead", page, "topic", form.topic(), "status", status));
        }
        return "ui/dead";
    }

    /** What the action would do, and the button that does it: changes nothing. */
    @PostMapping("/ui/bulk/confirm")
    String confirm(FilterForm form, Model model) {
        form.filter();
        model.addAttribute("filter", form);
        return "ui/fragments :: confirm";
    }

    @PostMapping("/ui/bulk/requeue")
    String requeue(FilterForm form, HttpServletRequest request, Model model) {
        return MessagePages.done(model, "requeue", admin.requeue(checked(form), MessagePages.caller(request)));
    }

    @PostMapping("/ui/bulk/delete")
    String delete(FilterForm form, HttpServletRequest request, Model model) {
        return MessagePages.done(model, "delete", admin.delete(checked(form), MessagePages.caller(request)));
    }

    @PostMapping("/ui/bulk/run-now")
    String runNow(FilterForm form, HttpServletRequest request, Model model) {
        return MessagePages.done(model, "run now", admin.runNow(checked(form), MessagePages.caller(request)));
    }

    /** The caller's scope holds the filter's topic; a scoped caller must name one, as on the REST routes. */
    private BulkFilter checked(FilterForm form) {
        BulkFilter filter = form.filter();
        if (filter.topic() == null) {
            guard.requireEveryTopic("a bulk action without a topic");
        } else {
            guard.checkTopic(filter.topic());
        }
        return filter;
    }

    record DeadForm(String topic, String status, String cursor) {
    }

    /** A bulk action's filter from a form: blank fields are absent; {@code action} names what confirm offers. */
    record FilterForm(String action, String topic, String status, String bizKey, String dueBefore, String all) {
        BulkFilter filter() {
            if (!"requeue".equals(action) && !"delete".equals(action) && !"run-now".equals(action)) {
                throw new InvalidRequestException("action", "must be requeue, delete or run-now");
            }
            return new BulkFilter(UiForms.text(topic), null, UiForms.text(bizKey), UiForms.text(status),
                    UiForms.text(dueBefore), "true".equals(all) ? Boolean.TRUE : null);
        }
    }
}
