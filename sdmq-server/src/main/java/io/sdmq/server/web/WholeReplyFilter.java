package io.sdmq.server.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Sends each reply whole, in one write with a {@code Content-Length}, instead of in chunks. Spring MVC flushes a
 * reply as soon as it has written the body, which commits it before its length is known: Tomcat then sends it
 * chunked, in one write for the headers and body and a second for the closing chunk, and the client reads twice.
 * Here those early flushes are dropped; Tomcat sends the reply when the request ends, and a reply larger than its
 * buffer (8 KiB) still goes out in chunks as it fills. Also on the asynchronous dispatch that answers a parked
 * {@code /get}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class WholeReplyFilter extends OncePerRequestFilter {
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(request, new Unflushed(response));
    }

    private static final class Unflushed extends HttpServletResponseWrapper {
        private ServletOutputStream body;

        Unflushed(HttpServletResponse response) {
            super(response);
        }

        @Override
        public void flushBuffer() {
            // sent when the request ends
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (body == null) {
                body = new UnflushedStream(super.getOutputStream());
            }
            return body;
        }
    }

    private static final class UnflushedStream extends ServletOutputStream {
        private final ServletOutputStream out;

        UnflushedStream(ServletOutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() {
            // sent when the request ends
        }

        @Override
        public void close() throws IOException {
            out.close();
        }

        @Override
        public boolean isReady() {
            return out.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            out.setWriteListener(listener);
        }
    }
}
