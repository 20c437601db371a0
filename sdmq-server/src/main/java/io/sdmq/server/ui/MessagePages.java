package io.sdmq.server.ui;

import io.sdmq.common.Transition;
import io.sdmq.core.Admin;
import io.sdmq.core.BulkFilter;
import io.sdmq.core.BulkResult;
import io.sdmq.core.MessagePage;
import io.sdmq.core.MessageSearch;
import io.sdmq.core.MessageView;
import io.sdmq.server.security.AccessFilter;
import io.sdmq.server.security.TopicGuard;
import io.sdmq.server.web.MessageIds;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.util.UriComponentsBuilder;

import java.time.Instant;
import java.util.List;

/**
 * The Messages pages: the search ({@code GET /messages}, a keyset page at a time), a message with its whole history,
 * and its actions: run now, delete (the bulk actions on its id) and requeue ({@code POST /requeue}).
 */
@Controller
class MessagePages {
    private final Admin admin;
    private final TopicGuard guard;

    MessagePages(Admin admin, TopicGuard guard) {
        this.admin = admin;
        this.guard = guard;
    }

    /** The search form and, once a field is given, a page of what matches; an id goes straight to its message. */
    @GetMapping("/ui/messages")
    String search(SearchForm form, Model model) {
        model.addAttribute("form", form);
        model.addAttribute("statuses", TopicRow.STATUSES);
        if (UiForms.text(form.id()) != null) {
            return "redirect:/ui/messages/" + MessageIds.parse(null, form.id());
        }
        if (form.given()) {
            Page page = page(form.search());
            model.addAttribute("page", page);
            model.addAttribute("next", next("/ui/messages", page, "topic", form.topic(), "status", form.status(),
                    "bizKey", form.bizKey(), "createdFrom", form.createdFrom(), "createdTo", form.createdTo()));
        }
        return "ui/messages";
    }

    @GetMapping("/ui/messages/{id}")
    String message(@PathVariable String id, Model model) {
        MessageView view = admin.message(MessageIds.parse(null, id));
        guard.checkTopic(view.stored().message().topic());
        model.addAttribute("message", MessageItem.of(view.stored()));
        model.addAttribute("history", view.history().stream().map(Step::of).toList());
        return "ui/message";
    }

    @PostMapping("/ui/messages/{id}/run-now")
    String runNow(@PathVariable String id, HttpServletRequest request, Model model) {
        long parsed = checked(id);
        return done(model, "run now", admin.runNow(only(parsed), caller(request)));
    }

    @PostMapping("/ui/messages/{id}/delete")
    String delete(@PathVariable String id, HttpServletRequest request, Model model) {
        long parsed = checked(id);
        return done(model, "delete", admin.delete(only(parsed), caller(request)));
    }

    @PostMapping("/ui/messages/{id}/requeue")
    String requeue(@PathVariable String id, Model model) {
        admin.requeue(checked(id));
        model.addAttribute("done", "requeued: due now, its attempts counted afresh");
        return "ui/layout :: result";
    }

    /** One status change as the history shows it. */
    record Step(Instant at, String move, String bucket, String host, String thread, String note) {
        static Step of(Transition t) {
            return new Step(Instant.ofEpochMilli(t.changedAt()), (t.from() == null ? "" : t.from().name() + " → ")
                    + t.to().name(), t.bucket(), t.host(), t.thread(), t.note());
        }
    }

    /** A page of messages, each a {@link MessageItem}, with the cursor of the next. */
    record Page(List<MessageItem> items, String nextCursor) {
    }

    Page page(MessageSearch search) {
        if (search.topic() == null) {
            guard.requireEveryTopic("a search without a topic");
        } else {
            guard.checkTopic(search.topic());
        }
        MessagePage page = admin.search(search);
        return new Page(page.items().stream().map(MessageItem::of).toList(), page.nextCursor());
    }

    /** The link to the page after {@code page}: the same search with its cursor; null after the last page. */
    static String next(String path, Page page, String... fields) {
        if (page.nextCursor() == null) {
            return null;
        }
        UriComponentsBuilder uri = UriComponentsBuilder.fromPath(path);
        for (int i = 0; i < fields.length; i += 2) {
            if (UiForms.text(fields[i + 1]) != null) {
                uri.queryParam(fields[i], fields[i + 1].strip());
            }
        }
        return uri.queryParam("cursor", page.nextCursor()).encode().build().toUriString();
    }

    static String done(Model model, String action, BulkResult result) {
        model.addAttribute("done", action + ": " + result.matched() + " matched, " + result.changed() + " changed");
        return "ui/layout :: result";
    }

    static String caller(HttpServletRequest request) {
        return (String) request.getAttribute(AccessFilter.CALLER_NAME);
    }

    private long checked(String id) {
        long parsed = MessageIds.parse(null, id);
        guard.checkId(parsed);
        return parsed;
    }

    private static BulkFilter only(long id) {
        return new BulkFilter(null, List.of(Long.toString(id)), null, null, null, null);
    }

    /** The search form as given; blank fields are no filter. Times are ISO-8601 instants, as on the REST route. */
    record SearchForm(String id, String topic, String status, String bizKey, String createdFrom, String createdTo,
                      String cursor) {
        boolean given() {
            return UiForms.text(topic) != null || UiForms.text(status) != null || UiForms.text(bizKey) != null
                    || UiForms.text(createdFrom) != null || UiForms.text(createdTo) != null;
        }

        MessageSearch search() {
            return new MessageSearch(UiForms.text(topic), UiForms.text(status), UiForms.text(bizKey),
                    UiForms.text(createdFrom), UiForms.text(createdTo), "50", UiForms.text(cursor));
        }
    }
}
