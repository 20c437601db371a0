package io.sdmq.core.mysql;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Random text from a seeded {@link Random}, rich in what breaks SQL literals: quotes, backslashes, NUL and other
 * control characters, comment and escape look-alikes, 2-, 3- and 4-byte UTF-8. One text in four is plain printable
 * ASCII without quote or backslash (the renderer's other path), one in four printable ASCII with many quotes and
 * backslashes; one in four is of the longest length allowed. Never a lone surrogate: that is no Unicode text, and no
 * UTF-8 column can hold it.
 */
final class RandomText {
    /** Characters with a meaning to SQL or to a driver, each one UTF-16 unit and one UTF-8 byte. */
    private static final String SPECIAL = "'\"`\\%_?{}()[];#-/*\0\u001a\b\t\n\r ";
    private static final String[] SEQUENCES = {"\\'", "''", "\\\\", "\\0", "\\n", "\\Z", "\\%", "'; --", "*/",
        "/*!", "{fn now()}", "${x}", "#{x}", "X'00'", "_utf8mb4 '", "\\u0000", "\r\n", "😀", "👍🏽", "\uFEFF"};
    private static final String TOPIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";

    private final Random random;

    private enum Kind { PLAIN, QUOTED, MIXED }

    RandomText(Random random) {
        this.random = random;
    }

    /** Text of at most {@code maxUnits} UTF-16 units, a column's length as Java counts it. */
    String text(int maxUnits) {
        return text(maxUnits, Integer.MAX_VALUE);
    }

    /** Text of at most {@code maxUnits} UTF-16 units and {@code maxBytes} UTF-8 bytes. */
    String text(int maxUnits, int maxBytes) {
        boolean longest = random.nextInt(4) == 0;
        int units = longest ? maxUnits : random.nextInt(Math.min(maxUnits, random.nextInt(8) == 0 ? 5_000 : 200) + 1);
        Kind kind = switch (random.nextInt(4)) {
            case 0 -> Kind.PLAIN;
            case 1 -> Kind.QUOTED;
            default -> Kind.MIXED;
        };
        StringBuilder text = new StringBuilder(units);
        int bytes = 0;
        while (text.length() < units && bytes < maxBytes) {
            String piece = piece(kind);
            int pieceBytes = piece.getBytes(StandardCharsets.UTF_8).length;
            if (text.length() + piece.length() > units || bytes + pieceBytes > maxBytes) {
                piece = "x";
                pieceBytes = 1;
            }
            text.append(piece);
            bytes += pieceBytes;
        }
        return kind == Kind.PLAIN ? text.toString().replace('\'', 'q').replace('\\', 'b') : text.toString();
    }

    /** A topic as the push rules allow it: 1 to 64 of {@code [A-Za-z0-9._-]}. */
    String topic() {
        int length = random.nextInt(4) == 0 ? 64 : 1 + random.nextInt(64);
        StringBuilder topic = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            topic.append(TOPIC.charAt(random.nextInt(TOPIC.length())));
        }
        return topic.toString();
    }

    private String piece(Kind kind) {
        if (kind == Kind.MIXED) {
            return mixed();
        }
        if (kind == Kind.QUOTED && random.nextInt(4) == 0) {
            return random.nextBoolean() ? "'" : "\\";
        }
        return String.valueOf((char) (' ' + random.nextInt(95)));
    }

    private String mixed() {
        return switch (random.nextInt(7)) {
            case 0 -> String.valueOf(SPECIAL.charAt(random.nextInt(SPECIAL.length())));
            case 1 -> SEQUENCES[random.nextInt(SEQUENCES.length)];
            case 2 -> String.valueOf((char) (' ' + random.nextInt(95)));
            case 3 -> String.valueOf((char) (random.nextBoolean() ? random.nextInt(32) : 0x7f + random.nextInt(33)));
            case 4 -> bmpCharacter();
            case 5 -> Character.toString(0x1_0000 + random.nextInt(0x10_0000));
            default -> Character.toString(0x1F300 + random.nextInt(0x700));
        };
    }

    /** A character of the Basic Multilingual Plane past Latin-1's controls, not a surrogate. */
    private String bmpCharacter() {
        int c = 0xA0 + random.nextInt(0x1_0000 - 0xA0 - 0x800);
        return String.valueOf((char) (c >= 0xD800 ? c + 0x800 : c));
    }
}
