package io.sdmq.core.spi;

import java.util.Collection;
import java.util.List;

/**
 * The rate and in-flight limits of topics, shared by every instance: how many messages one pop may take now, and
 * which of the topic's messages are reserved. Asked only for topics that have a limit.
 */
public interface TopicLimits {

    /**
     * Grants up to {@code wanted} messages to one pop at {@code now}: no more than {@code rateLimit} handed out in
     * this second and {@code maxInFlight} reserved at once (a null limit does not limit). The grant holds its slots
     * until {@link #taken} says which messages it took.
     */
    Grant grant(String topic, int wanted, long now, Integer rateLimit, Integer maxInFlight);

    /**
     * What a grant took: each message reserved until its deadline; the slots it did not use are given back.
     *
     * @param reserved id and deadline of each message taken, in pairs
     */
    void taken(String topic, Grant grant, List<long[]> reserved);

    /** The messages are no longer reserved (finished, nacked). */
    void released(String topic, Collection<Long> ids);

    /** A reservation of the topic, if it is one, now ends at {@code deadline}. */
    void extended(String topic, long id, long deadline);

    /**
     * How many messages a pop may take, and what the limits hold for it until it says what it took.
     *
     * @param count       messages the pop may take
     * @param token       names the slots held for it
     * @param window      the second whose rate counter it counted in
     * @param rateLimited whether it counted against a rate limit
     * @param inFlight    whether it holds in-flight slots
     */
    record Grant(int count, String token, long window, boolean rateLimited, boolean inFlight) {
    }
}
