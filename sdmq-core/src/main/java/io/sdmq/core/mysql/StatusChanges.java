package io.sdmq.core.mysql;

import cn.hutool.core.collection.ListUtil;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns a batch of transitions into as few guarded status updates as give the same rows as applying each in turn.
 * A message's consecutive transitions fold into one update when their times do not go back, none leaves DEAD or
 * EXPIRED (a requeue has a guard of its own) and none but the last is terminal. Applied in turn, such a run either
 * applies from its first transition the row is not newer than, or not at all; so the last transition's guard decides,
 * and the attempts and due time come from the last transition that carried them, if the row is not newer than it.
 * <p>
 * Then messages with a single update in the batch that share all its parameters (statuses, times, attempts, due
 * time; a move, a pop or a batch push gives its messages one time) share one {@code id IN (...)} update when there
 * are at least {@link #MIN_SHARED} of them: MySQL parses, plans and logs one statement for them, which costs it about
 * a twentieth of as many single-row statements. Of the rest, those that carry no attempts or due time and share
 * their statuses (single pushes' WAIT_PUT to DELAY: each push has its own time) share one update that gives each
 * message its own time, in its guard and as its update time, again from {@link #MIN_SHARED} of them on. The other
 * updates come first, one id each in id order; a message with several updates keeps them all there, in order.
 * A shared update names at most {@link #MAX_IDS} ids: see there.
 */
final class StatusChanges {
    private static final int MIN_SHARED = 3;
    /**
     * Most ids in one {@code id IN (...)} list. MariaDB turns a list of 1 000 or more ({@code
     * in_predicate_conversion_threshold}) into a join with a temporary table, which may scan the whole primary key;
     * a scan in a locking statement locks every row it reads and the gaps between them, so concurrent pushes wait
     * for the batch or deadlock with it.
     */
    static final int MAX_IDS = 500;

    /**
     * What {@link LiteralSql#transitions} renders besides the status log rows: the messages whose rows to lock first
     * (none, or every message of the changes, in id order), and the changes in the order they run.
     */
    record Batch(List<Long> lockIds, List<StatusChange> changes) {
        /**
         * Shared updates lock their rows out of id order; locking all the batch's rows in id order first keeps two
         * writers that update the same messages from deadlocking. Updates of one row each need no such lock.
         */
        static Batch of(List<StatusChange> changes) {
            boolean shared = changes.stream().anyMatch(change -> change.ids().size() > 1);
            return new Batch(shared ? changes.stream().flatMap(change -> change.ids().stream()).sorted().toList()
                    : List.of(), changes);
        }
    }

    private StatusChanges() {
    }

    static List<StatusChange> fold(List<Transition> transitions) {
        Map<Long, List<Transition>> byMessage = transitions.stream()
                .collect(Collectors.groupingBy(Transition::messageId, LinkedHashMap::new, Collectors.toList()));
        List<StatusChange> singles = new ArrayList<>(byMessage.size());
        Map<StatusChange, List<Long>> shared = new LinkedHashMap<>();
        for (List<Transition> run : byMessage.values()) {
            List<StatusChange> changes = changesOf(run);
            if (changes.size() == 1) {
                StatusChange only = changes.get(0);
                shared.computeIfAbsent(only.withIds(List.of()), shape -> new ArrayList<>()).add(only.ids().get(0));
            } else {
                singles.addAll(changes);
            }
        }
        List<StatusChange> groups = new ArrayList<>();
        Map<List<MessageStatus>, List<StatusChange>> sameStatuses = new LinkedHashMap<>();
        shared.forEach((shape, ids) -> {
            if (ids.size() >= MIN_SHARED) {
                chunks(ids.stream().sorted().toList()).forEach(chunk -> groups.add(shape.withIds(chunk)));
            } else if (shape.attempts() == null && shape.dueTime() == null) {
                ids.forEach(id -> sameStatuses.computeIfAbsent(Arrays.asList(shape.fromStatus(), shape.toStatus()),
                        statuses -> new ArrayList<>()).add(shape.withIds(List.of(id))));
            } else {
                ids.forEach(id -> singles.add(shape.withIds(List.of(id))));
            }
        });
        sameStatuses.forEach((statuses, changes) -> {
            if (changes.size() >= MIN_SHARED) {
                chunks(changes.stream()
                        .map(change -> new StatusChange.Timed(change.ids().get(0), change.changedAt()))
                        .sorted(Comparator.comparingLong(StatusChange.Timed::id))
                        .toList()).forEach(chunk -> groups.add(StatusChange.timed(statuses.get(0), statuses.get(1),
                        chunk)));
            } else {
                singles.addAll(changes);
            }
        });
        singles.sort(Comparator.comparingLong(change -> change.ids().get(0)));
        singles.addAll(groups);
        return singles;
    }

    /** One message's transitions, in order, as the fewest changes that give its row the same values. */
    private static List<StatusChange> changesOf(List<Transition> run) {
        List<StatusChange> changes = new ArrayList<>(1);
        int start = 0;
        for (int i = 1; i <= run.size(); i++) {
            if (i == run.size() || !continues(run.get(i - 1), run.get(i))) {
                changes.add(change(run.subList(start, i)));
                start = i;
            }
        }
        return changes;
    }

    /** The list cut into runs of at most {@link #MAX_IDS}, in order. */
    static <T> List<List<T>> chunks(List<T> list) {
        return ListUtil.partition(list, MAX_IDS);
    }

    private static boolean continues(Transition previous, Transition next) {
        return !previous.to().isTerminal() && !isRequeue(previous) && !isRequeue(next)
                && next.changedAt() >= previous.changedAt();
    }

    private static boolean isRequeue(Transition t) {
        return Statuses.REQUEUED_FROM.contains(t.from());
    }

    private static StatusChange change(List<Transition> run) {
        Transition last = run.get(run.size() - 1);
        Transition attempts = last;
        Transition dueTime = last;
        for (Transition t : run) {
            attempts = t.attempts() != null ? t : attempts;
            dueTime = t.dueTime() != null ? t : dueTime;
        }
        return new StatusChange(List.of(last.messageId()), last.from(), last.to(), Rows.utc(last.changedAt()),
                attempts.attempts(), Rows.utc(attempts.changedAt()),
                dueTime.dueTime() == null ? null : Rows.utc(dueTime.dueTime()), Rows.utc(dueTime.changedAt()), null);
    }
}
