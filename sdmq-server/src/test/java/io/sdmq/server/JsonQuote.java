package io.sdmq.server;

import tools.jackson.databind.json.JsonMapper;

/** Quotes a string as a JSON string literal. */
final class JsonQuote {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private JsonQuote() {
    }

    static String of(String value) {
        return JSON.writeValueAsString(value);
    }
}
