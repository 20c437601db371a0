package io.sdmq.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that handles the messages of a topic. The method takes one argument, the
 * {@link io.sdmq.client.Delivered} message or its body as a {@code String}. A listener container polls the topic in
 * batches on {@link #concurrency()} threads and calls the method once per message:
 * <ul>
 *   <li>it returns: the message is finished (with the next poll, in the same call);</li>
 *   <li>it throws: the message is nacked and the server redelivers it after the message's backoff, until its
 *       attempts are exhausted and it is DEAD;</li>
 *   <li>it throws a {@link NonRetryableException}, or an exception of a type in {@link #nonRetryable()}: the
 *       message is DEAD at once;</li>
 *   <li>it runs past half the message's time-to-run: the message is touched, so that it is not handed out again.</li>
 * </ul>
 * Every message is delivered at least once: a method must tolerate seeing one again (after a crash, or a TTR that
 * passed while the server was unreachable).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface SdmqListener {

    /** The topic; {@code ${…}} placeholders are resolved. */
    String topic();

    /** Threads polling and handling this topic, e.g. {@code "4"} or {@code "${orders.threads}"}; empty: the default. */
    String concurrency() default "";

    /** Exception types (subclasses included) that make the message DEAD at once instead of nacked. */
    Class<? extends Throwable>[] nonRetryable() default {};
}
