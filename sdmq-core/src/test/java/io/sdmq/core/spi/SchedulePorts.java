package io.sdmq.core.spi;

/** The three schedule ports in one, as the in-memory store and the tests' wrappers of it implement them. */
public interface SchedulePorts extends Schedule, Reservations, RestoreTarget {
}
