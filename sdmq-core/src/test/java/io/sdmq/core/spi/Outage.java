package io.sdmq.core.spi;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/** Wraps a port so a test can take its backing service down and bring it back: while down, every call fails. */
public final class Outage {
    private final AtomicBoolean down = new AtomicBoolean();

    public void begin() {
        down.set(true);
    }

    public void end() {
        down.set(false);
    }

    /** {@code target} as seen through this outage. */
    public <T> T wrap(Class<T> port, T target) {
        Object proxy = Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (self, method, args) -> {
            if (down.get() && !method.getName().equals("buckets") && !method.getName().equals("bucketName")) {
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
