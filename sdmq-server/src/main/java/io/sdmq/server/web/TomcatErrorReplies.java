package io.sdmq.server.web;

import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Puts the envelope on the error replies Tomcat answers itself: a request it refused before the application saw it
 * (an encoded slash, a path above the root, broken percent-encoding or UTF-8), and an error status whose body nobody
 * wrote. Replaces the host's error report valve, which Spring Boot installs and which writes an HTML page.
 */
@Component
class TomcatErrorReplies implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {
    private final JsonMapper json;

    TomcatErrorReplies(JsonMapper json) {
        this.json = json;
    }

    /** After Spring Boot's own customizer, so its valve is there to be replaced. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            Pipeline pipeline = host.getPipeline();
            for (Valve valve : pipeline.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    pipeline.removeValve(valve);
                }
            }
            pipeline.addValve(new EnvelopeValve(json));
            // the host adds a valve of this class when it starts unless one is there: ours
            host.setErrorReportValveClass(EnvelopeValve.class.getName());
        });
    }

    /** Tomcat's error report valve, writing the envelope instead of an HTML page. */
    static final class EnvelopeValve extends ErrorReportValve {
        private static final Logger log = LoggerFactory.getLogger(TomcatErrorReplies.class);

        private final JsonMapper json;

        EnvelopeValve(JsonMapper json) {
            this.json = json;
        }

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0 || response.isCommitted()) {
                return;
            }
            response.setErrorReported();
            String message = RefusedRequests.message(status, request.getMethod(), request.getRequestURI(),
                    request.getContext() == null);
            RefusedRequests.logAnswer(status, message);
            try {
                response.setContentType(MediaType.APPLICATION_JSON_VALUE);
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                Writer writer = response.getReporter();
                if (writer != null) {
                    writer.write(json.writeValueAsString(new ApiResponse<>(false, status, message, null)));
                }
            } catch (IOException | IllegalStateException e) {
                log.debug("could not write the error reply: {}", e.toString());
            }
        }
    }
}
