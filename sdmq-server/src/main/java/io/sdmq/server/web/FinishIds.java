package io.sdmq.server.web;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.SdmqException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ids of a batch finish as a client sent them: those that parse go to the engine, those that do not are answered
 * 400 in their place; {@link #results} puts the engine's outcomes back in the client's order.
 */
final class FinishIds {
    static final int MAX = 1_000;

    private final List<String> given;
    private final List<Long> valid = new ArrayList<>();
    private final List<Integer> validAt = new ArrayList<>();
    private final FinishResult[] results;

    private FinishIds(List<String> given, ApiExceptionHandler errors) {
        this.given = given;
        this.results = new FinishResult[given.size()];
        for (int i = 0; i < given.size(); i++) {
            try {
                valid.add(MessageIds.parse(given.get(i), null));
                validAt.add(i);
            } catch (SdmqException e) {
                results[i] = FinishResult.failed(given.get(i), e, errors);
            }
        }
    }

    /** Up to {@link #MAX} ids, at least {@code min}. */
    static FinishIds of(List<String> ids, int min, ApiExceptionHandler errors) {
        if (ids.size() < min || ids.size() > MAX) {
            throw new InvalidRequestException("ids", "must hold " + min + ".." + MAX + " message ids");
        }
        return new FinishIds(ids, errors);
    }

    List<Long> valid() {
        return valid;
    }

    /** Each id's outcome, in the order given: the engine's {@code outcomes} of {@link #valid}, in theirs. */
    List<FinishResult> results(List<Optional<SdmqException>> outcomes, ApiExceptionHandler errors) {
        for (int k = 0; k < valid.size(); k++) {
            String id = given.get(validAt.get(k));
            results[validAt.get(k)] = outcomes.get(k).map(e -> FinishResult.failed(id, e, errors))
                    .orElse(new FinishResult(id, 200, null));
        }
        return List.of(results);
    }

    /** The answer for one id of a batch finish: its HTTP-like code and, on failure, why. */
    record FinishResult(String id, int code, String message) {
        static FinishResult failed(String id, SdmqException e, ApiExceptionHandler errors) {
            return new FinishResult(id, errors.statusOf(e).value(), e.getMessage());
        }
    }
}
