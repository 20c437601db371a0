package io.sdmq.spring;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringValueResolver;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Finds the {@link SdmqListener} methods of every bean as it is initialized and keeps them as
 * {@link ListenerEndpoint}s, their placeholders resolved; {@link SdmqListenerContainers} starts a container for each
 * once the context is refreshed. A malformed listener fails the start-up, naming the method and what is wrong.
 */
public class SdmqListenerAnnotationProcessor implements BeanPostProcessor, EmbeddedValueResolverAware {
    private final List<ListenerEndpoint> endpoints = new ArrayList<>();
    private StringValueResolver resolver = value -> value;

    @Override
    public void setEmbeddedValueResolver(StringValueResolver resolver) {
        this.resolver = resolver;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = AopUtils.getTargetClass(bean);
        Map<Method, SdmqListener> annotated = MethodIntrospector.selectMethods(type,
                (MethodIntrospector.MetadataLookup<SdmqListener>) m ->
                        AnnotatedElementUtils.findMergedAnnotation(m, SdmqListener.class));
        annotated.forEach((method, listener) -> add(bean, beanName, method, listener));
        return bean;
    }

    /** Every listener found so far. */
    public synchronized List<ListenerEndpoint> endpoints() {
        return List.copyOf(endpoints);
    }

    private synchronized void add(Object bean, String beanName, Method method, SdmqListener listener) {
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        invocable.setAccessible(true);
        endpoints.add(new ListenerEndpoint(beanName, bean, invocable, resolver.resolveStringValue(listener.topic()),
                concurrency(beanName, method, listener), Arrays.asList(listener.nonRetryable())));
    }

    private int concurrency(String beanName, Method method, SdmqListener listener) {
        String value = resolver.resolveStringValue(listener.concurrency());
        if (value == null || value.isBlank()) {
            return ListenerEndpoint.DEFAULT_CONCURRENCY;
        }
        try {
            int threads = Integer.parseInt(value.strip());
            if (threads >= 1) {
                return threads;
            }
        } catch (NumberFormatException e) {
            // answered below, as any other bad value
        }
        throw new IllegalStateException("@SdmqListener " + beanName + "." + method.getName()
                + ": concurrency must be a whole number of at least 1, was '" + value + "'");
    }
}
