package io.sdmq.server.compat;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.StoredMessage;
import io.sdmq.core.Admin;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The sdmq message an ouqiang client id names. The id is the message's {@code bizKey}, which sdmq keeps unique per
 * topic, while ouqiang's finish and delete name no topic; so a push refuses an id another topic holds, and finish and
 * delete find the id's message in every topic ({@code docs/decisions/0024-ouqiang-ids.md}).
 */
@Component
class ClientIds {
    private static final Pattern SDMQ_ID = Pattern.compile("[1-9][0-9]{0,18}");

    private final Admin admin;

    ClientIds(Admin admin) {
        this.admin = admin;
    }

    /**
     * Refuses an id held in another topic, or by a message that has ended (a push would answer that message's id
     * and schedule nothing). An id held by a pending message of the same topic passes: the push is a duplicate.
     */
    void checkFree(String topic, String id) {
        for (StoredMessage holder : admin.messagesByKey(id)) {
            Message m = holder.message();
            if (!m.topic().equals(topic)) {
                throw new InvalidRequestException("id", "is already the id of a message of topic " + m.topic()
                        + "; an id must be unique across topics");
            }
            if (holder.status().isTerminal()) {
                throw new InvalidRequestException("id", "is the id of a message that is " + holder.status()
                        + "; sdmq keeps an id until sdmq.recovery.retention purges its message, so use a new id");
            }
        }
    }

    /**
     * The sdmq id of the message a client id names: its one holder not yet ended; else an ended holder, on which the
     * operation then fails saying why; else a message pushed without a bizKey, which a pop hands out under its sdmq
     * id. Several holders not yet ended (another topic took the id with a native push, or in a race with a compat
     * one) are refused, naming their topics. Answers the message as MySQL has it, its topic with it, so the caller's
     * topic scope needs no lookup of its own.
     */
    Message messageOf(String id, String operation) {
        List<StoredMessage> holders = admin.messagesByKey(id);
        List<StoredMessage> live = holders.stream().filter(h -> !h.status().isTerminal()).toList();
        if (live.size() > 1) {
            throw new InvalidRequestException("id", "names messages in several topics ("
                    + String.join(", ", live.stream().map(h -> h.message().topic()).sorted().toList()) + "); "
                    + operation + " one by its sdmq id with /" + operation + "?jobId=");
        }
        if (!live.isEmpty()) {
            return live.get(0).message();
        }
        if (!holders.isEmpty()) {
            return holders.get(0).message();
        }
        return keyless(id).orElseThrow(() -> new InvalidRequestException("id", "no message has this id"));
    }

    private Optional<Message> keyless(String id) {
        if (!SDMQ_ID.matcher(id).matches()) {
            return Optional.empty();
        }
        try {
            Message message = admin.message(Long.parseLong(id)).stored().message();
            return message.bizKey() == null ? Optional.of(message) : Optional.empty();
        } catch (NumberFormatException | MessageNotFoundException e) {
            return Optional.empty();
        }
    }
}
