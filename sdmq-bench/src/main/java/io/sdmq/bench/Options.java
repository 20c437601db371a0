package io.sdmq.bench;

import java.util.HashMap;
import java.util.Map;

/** Command-line options, all of the form {@code --name value}. */
final class Options {
    private final Map<String, String> values = new HashMap<>();

    Options(String[] args) {
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value, got: " + args[i]);
            }
            values.put(args[i].substring(2), args[i + 1]);
        }
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    String text(String name, String otherwise) {
        return values.getOrDefault(name, otherwise);
    }

    int integer(String name, int otherwise) {
        return has(name) ? Integer.parseInt(values.get(name)) : otherwise;
    }
}
