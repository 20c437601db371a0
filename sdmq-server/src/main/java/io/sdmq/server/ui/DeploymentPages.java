package io.sdmq.server.ui;

import io.sdmq.server.instances.InstanceRegistry;
import io.sdmq.server.recovery.Restores;
import io.sdmq.server.security.TopicGuard;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * The Instances page (every instance of the deployment, from {@code GET /instances}) and the Recovery page (the
 * latest restore of the deployment on any instance, from {@code GET /reStore/progress}, and starting one in the
 * background as {@code POST /reStore?wait=false} does). Both refresh themselves while they are open.
 */
@Controller
class DeploymentPages {
    private final InstanceRegistry instances;
    private final Restores restores;
    private final TopicGuard guard;

    DeploymentPages(InstanceRegistry instances, Restores restores, TopicGuard guard) {
        this.instances = instances;
        this.restores = restores;
        this.guard = guard;
    }

    @GetMapping("/ui/instances")
    String instances(Model model) {
        model.addAttribute("instances", instances.list().stream().map(InstanceRow::of).toList());
        return "ui/instances";
    }

    @GetMapping("/ui/recovery")
    String recovery(Model model) {
        model.addAttribute("progress", restores.latest().map(RestoreRow::of).orElse(null));
        return "ui/recovery";
    }

    /** Starts a whole restore in the background (409 while one runs here) and shows its progress as it goes. */
    @PostMapping("/ui/recovery")
    @ResponseStatus(HttpStatus.ACCEPTED)
    String restore(@RequestParam(required = false) String expire, Model model) {
        guard.requireEveryTopic("a restore");
        model.addAttribute("progress", RestoreRow.of(restores.start(!"false".equals(expire))));
        return "ui/recovery :: progress";
    }
}
