package io.sdmq.spring;

import io.sdmq.client.Delivered;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;

/**
 * One {@code @SdmqListener} method, its attributes resolved: what a container needs to run it.
 *
 * @param beanName     the bean's name, for thread names and logs
 * @param bean         the bean whose method is called
 * @param method       the method, taking a {@link Delivered} or a {@code String}
 * @param topic        the topic polled
 * @param concurrency  threads, at least 1; {@link #DEFAULT_CONCURRENCY} for the container factory's default
 * @param nonRetryable exception types that make a message DEAD at once
 */
public record ListenerEndpoint(String beanName, Object bean, Method method, String topic, int concurrency,
                               List<Class<? extends Throwable>> nonRetryable) {

    /** The concurrency of a listener whose annotation names none: the factory's default applies. */
    public static final int DEFAULT_CONCURRENCY = 0;

    public ListenerEndpoint {
        Objects.requireNonNull(bean, "bean");
        Objects.requireNonNull(method, "method");
        if (method.getParameterCount() != 1 || (method.getParameterTypes()[0] != Delivered.class
                && method.getParameterTypes()[0] != String.class)) {
            throw new IllegalStateException("@SdmqListener " + name(beanName, method)
                    + ": must take one argument, a Delivered or a String");
        }
        if (topic == null || topic.isBlank()) {
            throw new IllegalStateException("@SdmqListener " + name(beanName, method) + ": topic must not be blank");
        }
        if (concurrency < DEFAULT_CONCURRENCY) {
            throw new IllegalStateException("@SdmqListener " + name(beanName, method)
                    + ": concurrency must be at least 1, was " + concurrency);
        }
        nonRetryable = List.copyOf(nonRetryable);
    }

    /** This endpoint with {@code threads} when it names no concurrency of its own. */
    ListenerEndpoint withDefaultConcurrency(int threads) {
        return concurrency != DEFAULT_CONCURRENCY ? this
                : new ListenerEndpoint(beanName, bean, method, topic, threads, nonRetryable);
    }

    /** {@code bean.method}, for logs. */
    public String name() {
        return name(beanName, method);
    }

    /** The argument the method takes for {@code message}. */
    Object argument(Delivered message) {
        return method.getParameterTypes()[0] == String.class ? message.body() : message;
    }

    /** True when {@code failure} makes the message DEAD at once. */
    boolean isNonRetryable(Throwable failure) {
        return failure instanceof NonRetryableException
                || nonRetryable.stream().anyMatch(type -> type.isInstance(failure));
    }

    private static String name(String beanName, Method method) {
        return beanName + "." + method.getName();
    }
}
