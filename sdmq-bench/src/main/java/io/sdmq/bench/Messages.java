package io.sdmq.bench;

/**
 * The bench's messages. A body is {@code seq|due|xxx…}: its sequence number in the run and its due time (epoch
 * ms), padded to a fixed size, so a consumer can count loss, duplicates and early deliveries exactly and compare
 * the due time with the one the server reports. Pushes use {@code deliverAt}, so the due time is the client's own
 * number and not the server's create time plus a delay.
 */
final class Messages {
    private Messages() {
    }

    static String body(int seq, long due, int size) {
        StringBuilder body = new StringBuilder(size).append(seq).append('|').append(due).append('|');
        while (body.length() < size) {
            body.append('x');
        }
        return body.toString();
    }

    static int seqOf(String body) {
        return Integer.parseInt(body, 0, body.indexOf('|'), 10);
    }

    static long dueOf(String body) {
        int first = body.indexOf('|');
        return Long.parseLong(body, first + 1, body.indexOf('|', first + 1), 10);
    }
}
