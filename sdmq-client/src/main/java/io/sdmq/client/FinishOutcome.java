package io.sdmq.client;

/**
 * The answer for one id of a batch finish.
 *
 * @param id      the id as it was given
 * @param code    200 when it was finished; else 400 (not an id), 404 (unknown) or 409 (not reserved, or terminal)
 * @param message why it was not finished, as the server says it; null when it was
 */
public record FinishOutcome(String id, int code, String message) {

    public boolean finished() {
        return code == 200;
    }
}
