package io.sdmq.core.mysql;

import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@link MySqlMessageLog#applyWhereStill}: a bulk requeue's page in one transaction of two round trips. First the
 * messages still in their transition's {@code from} status and last changed before it are locked, per status and time
 * and each group in id order, in statements of up to {@link StatusChanges#MAX_IDS} ids; then one multi-statement
 * writes the status log rows of those, updates them in shared updates of up to as many ids where they share their
 * values (a page does), and commits. The others write nothing.
 */
final class MovesWhereStill {
    private final MessageMapper mapper;
    private final Transactions transactions;
    private final String host;

    MovesWhereStill(MessageMapper mapper, Transactions transactions, String host) {
        this.mapper = mapper;
        this.transactions = transactions;
        this.host = host;
    }

    /** Runs inside a transaction of {@code transactions}; answers the ids moved, in the transitions' order. */
    List<Long> apply(List<Transition> transitions) {
        Set<Long> still = lock(transitions);
        List<Transition> moving = transitions.stream().filter(t -> still.contains(t.messageId())).toList();
        if (!moving.isEmpty()) {
            // their rows are locked already, in id order: the updates need no lock statement of their own
            transactions.execute(LiteralSql.transitions(moving.stream().map(t -> Rows.statusLogRow(t, host)).toList(),
                    new StatusChanges.Batch(List.of(), StatusChanges.fold(moving))));
        }
        return moving.stream().map(Transition::messageId).toList();
    }

    private Set<Long> lock(List<Transition> transitions) {
        Map<Still, TreeSet<Long>> groups = transitions.stream().collect(Collectors.groupingBy(
                t -> new Still(t.from(), t.changedAt()), () -> new TreeMap<>(Still.ORDER),
                Collectors.mapping(Transition::messageId, Collectors.toCollection(TreeSet::new))));
        Set<Long> still = new HashSet<>();
        groups.forEach((where, ids) -> StatusChanges.chunks(List.copyOf(ids)).forEach(chunk ->
                still.addAll(mapper.lockIdsInStatus(chunk, where.status(), Rows.text(where.before())))));
        return still;
    }

    /** Messages in {@code status} last changed before {@code before}: those a transition at that time moves. */
    private record Still(MessageStatus status, long before) {
        /** One order of the locks for every caller. */
        static final Comparator<Still> ORDER = Comparator.comparing(Still::status).thenComparingLong(Still::before);
    }
}
