package io.sdmq.common;

/** Mints message ids that no other instance mints. */
public interface IdGenerator {
    long nextId();
}
