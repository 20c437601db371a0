package io.sdmq.client;

import java.util.List;

/**
 * The answer of {@link SdmqClient#finishAndGet}: the outcome of each id it finished, in the order given, and the
 * messages it then delivered.
 *
 * @param finished each finished id's outcome (a bad id fails only itself)
 * @param messages the new batch, reserved for its TTR; empty when none came in the timeout
 */
public record FinishedAndDelivered(List<FinishOutcome> finished, List<Delivered> messages) {

    public FinishedAndDelivered {
        finished = List.copyOf(finished);
        messages = List.copyOf(messages);
    }
}
