package io.sdmq.core.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/** Splits a multi-row statement's rows so that one statement stays well under the server's packet limit. */
final class Chunks {
    static final int MAX_ROWS = 500;
    /** Characters of payload per statement: at 4 bytes each, 8 MiB, half of MariaDB's default packet. */
    static final long MAX_CHARS = 2L * 1024 * 1024;

    private Chunks() {
    }

    static <T> List<List<T>> of(List<T> rows, ToLongFunction<T> chars) {
        List<List<T>> chunks = new ArrayList<>();
        List<T> current = new ArrayList<>();
        long currentChars = 0;
        for (T row : rows) {
            long size = chars.applyAsLong(row);
            if (!current.isEmpty() && (current.size() == MAX_ROWS || currentChars + size > MAX_CHARS)) {
                chunks.add(current);
                current = new ArrayList<>();
                currentChars = 0;
            }
            current.add(row);
            currentChars += size;
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        return chunks;
    }
}
