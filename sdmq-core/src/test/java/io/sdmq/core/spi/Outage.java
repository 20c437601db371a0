package io.sdmq.core.spi;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Wraps a port so a test can take its backing service down and bring it back: while down, every call fails. */
public final class Outage {
    private final AtomicBoolean down = new AtomicBoolean();
    private final AtomicInteger callsBeforeDown = new AtomicInteger(-1);

    public void begin() {
        down.set(true);
    }

    /** Goes down once the next {@code calls} calls have gone through: a service lost in the middle of a request. */
    public void beginAfter(int calls) {
        callsBeforeDown.set(calls);
    }

    public void end() {
        callsBeforeDown.set(-1);
        down.set(false);
    }

    /** {@code target} as seen through this outage. */
    public <T> T wrap(Class<T> port, T target) {
        Object proxy = Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (self, method, args) -> {
            if (method.isDefault()) {
                // a call over several buckets made of the port's own calls: each of them meets the outage
                return InvocationHandler.invokeDefault(self, method, args);
            }
            boolean layout = method.getName().equals("buckets") || method.getName().equals("bucketName");
            if (!layout && callsBeforeDown.getAndUpdate(n -> n >= 0 ? n - 1 : n) == 0) {
                down.set(true);
            }
            if (down.get() && !layout) {
                throw new IllegalStateException(port.getSimpleName() + " is down (test outage)");
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        return port.cast(proxy);
    }
}
