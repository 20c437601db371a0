package io.sdmq.server.instances;

import io.sdmq.server.web.ApiResponse;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** Viewer: every running instance of the deployment, its health, scheduler lag and status log queue. */
@RestController
class InstancesController {
    private final InstanceRegistry registry;

    InstancesController(InstanceRegistry registry) {
        this.registry = registry;
    }

    @GetMapping("/instances")
    ResponseEntity<ApiResponse<List<InstanceEntry>>> instances() {
        return ApiResponse.ok(registry.list());
    }
}
