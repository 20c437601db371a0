package io.sdmq.core.redis;

import java.util.List;

/**
 * The Redis keys of one bucket. Each carries the hash tag {@code {b<n>}}, so a script that touches only
 * one bucket's keys runs on one Redis Cluster slot.
 */
record BucketKeys(String prefix, int bucket) {

    String meta() {
        return base() + ":meta";
    }

    String delay() {
        return base() + ":delay";
    }

    String reserved() {
        return base() + ":reserved";
    }

    /** Ids of messages due beyond the hot window, by score: their bodies are in MySQL until they are warmed. */
    String cold() {
        return base() + ":cold";
    }

    /** Ids finished, deleted or dead a moment ago, with when. */
    String gone() {
        return base() + ":gone";
    }

    /** The ready-list key of a topic is this prefix followed by the topic. */
    String readyPrefix() {
        return base() + ":ready:";
    }

    String ready(String topic) {
        return readyPrefix() + topic;
    }

    /** A SCAN pattern matching exactly this bucket's ready lists, whatever glob characters the prefix holds. */
    String readyPattern() {
        return escapeGlob(readyPrefix()) + "*";
    }

    List<String> metaAndDelay() {
        return List.of(meta(), delay());
    }

    List<String> metaDelayCold() {
        return List.of(meta(), delay(), cold());
    }

    private String base() {
        return prefix + ":{b" + bucket + "}";
    }

    private static String escapeGlob(String literal) {
        StringBuilder escaped = new StringBuilder(literal.length() + 8);
        for (char c : literal.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }
}
