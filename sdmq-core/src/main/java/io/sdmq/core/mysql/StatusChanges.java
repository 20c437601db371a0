package io.sdmq.core.mysql;

import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a batch of transitions into as few guarded status updates as give the same rows as applying each in turn.
 * A message's consecutive transitions fold into one update when their times do not go back, none leaves DEAD or
 * EXPIRED (a requeue has a guard of its own) and none but the last is terminal. Applied in turn, such a run either
 * applies from its first transition the row is not newer than, or not at all; so the last transition's guard decides,
 * and the attempts and due time come from the last transition that carried them, if the row is not newer than it.
 * Updates are ordered by message id, so concurrent writers lock rows in one order.
 */
final class StatusChanges {
    private StatusChanges() {
    }

    static List<StatusChange> fold(List<Transition> transitions) {
        Map<Long, List<Transition>> byMessage = new LinkedHashMap<>();
        for (Transition t : transitions) {
            byMessage.computeIfAbsent(t.messageId(), id -> new ArrayList<>()).add(t);
        }
        List<StatusChange> changes = new ArrayList<>(byMessage.size());
        for (List<Transition> run : byMessage.values()) {
            int start = 0;
            for (int i = 1; i <= run.size(); i++) {
                if (i == run.size() || !continues(run.get(i - 1), run.get(i))) {
                    changes.add(change(run.subList(start, i)));
                    start = i;
                }
            }
        }
        changes.sort(Comparator.comparingLong(StatusChange::id));
        return changes;
    }

    private static boolean continues(Transition previous, Transition next) {
        return !previous.to().isTerminal() && !isRequeue(previous) && !isRequeue(next)
                && next.changedAt() >= previous.changedAt();
    }

    private static boolean isRequeue(Transition t) {
        return t.from() == MessageStatus.DEAD || t.from() == MessageStatus.EXPIRED;
    }

    private static StatusChange change(List<Transition> run) {
        Transition last = run.get(run.size() - 1);
        Transition attempts = last;
        Transition dueTime = last;
        for (Transition t : run) {
            attempts = t.attempts() != null ? t : attempts;
            dueTime = t.dueTime() != null ? t : dueTime;
        }
        return new StatusChange(last.messageId(), last.from() == null ? null : last.from().name(), last.to().name(),
                Rows.utc(last.changedAt()), attempts.attempts(), Rows.utc(attempts.changedAt()),
                dueTime.dueTime() == null ? null : Rows.utc(dueTime.dueTime()), Rows.utc(dueTime.changedAt()));
    }
}
