package io.sdmq.core;

import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;

import java.util.List;

/** A message as MySQL records it, with every status change it went through, oldest first. */
public record MessageView(StoredMessage stored, List<Transition> history) {
}
