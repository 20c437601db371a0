package io.sdmq.core.mysql;

import io.sdmq.common.MessageStatus;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.ResultMap;
import org.apache.ibatis.annotations.Results;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;

/**
 * The reads and rare writes of {@link MySqlMessageLog}; its writes of messages and the status log are
 * {@link LiteralSql}. Status lists come as parameters (see {@link Statuses}), bound as the statuses' names; times as
 * UTC text ({@link Rows#text}), read back as UTC {@link LocalDateTime}. Needs no setting of MyBatis's: every result
 * maps to its record's constructor by the columns named here. Portable between MySQL 8.0+ and MariaDB 10.6+.
 * <p>
 * Public for the server, whose MyBatis starter registers it as a bean; it is used only through
 * {@link MySqlMessageLog}.
 */
@Mapper
public interface MessageMapper {
    /** {@code (…)}: the names of the parameter {@code statuses}, in a {@code <script>}. */
    String IN_STATUSES = "<foreach item='s' collection='statuses' open='(' separator=',' close=')'>#{s}</foreach>";

    /** The columns of {@link MessageRow}, in the order of its constructor (see {@link #findMessage}). */
    String SELECT_MESSAGE = """
            SELECT id, topic, biz_key, body, priority, delay_ms, ttr_ms, max_attempts, retry_delays, create_time,
                due_time, status, attempts, update_time
            """;

    /**
     * A shared locking read: it sees the latest committed row whatever this transaction's snapshot, and several
     * transactions that all found the key taken can hold it at once without deadlocking. It always reaches the
     * server, never MyBatis's cache of the transaction's earlier reads.
     */
    @Options(flushCache = Options.FlushCachePolicy.TRUE)
    @Select("SELECT id FROM sdmq_message WHERE topic = #{topic} AND biz_key = #{bizKey} LOCK IN SHARE MODE")
    Long lockIdByKey(@Param("topic") String topic, @Param("bizKey") String bizKey);

    /**
     * The columns of {@link MessageRow}, mapped to its constructor by position: naming the arguments spares MyBatis
     * matching column names to parameter names on every row, which was most of a restore's time.
     */
    @Results(id = "messageRow")
    @ConstructorArgs({
            @Arg(column = "id", javaType = long.class), @Arg(column = "topic", javaType = String.class),
            @Arg(column = "biz_key", javaType = String.class), @Arg(column = "body", javaType = String.class),
            @Arg(column = "priority", javaType = int.class), @Arg(column = "delay_ms", javaType = long.class),
            @Arg(column = "ttr_ms", javaType = long.class), @Arg(column = "max_attempts", javaType = int.class),
            @Arg(column = "retry_delays", javaType = String.class),
            @Arg(column = "create_time", javaType = LocalDateTime.class),
            @Arg(column = "due_time", javaType = LocalDateTime.class), @Arg(column = "status", javaType = String.class),
            @Arg(column = "attempts", javaType = int.class),
            @Arg(column = "update_time", javaType = LocalDateTime.class)})
    @Select(SELECT_MESSAGE + """
            FROM sdmq_message WHERE id = #{id}""")
    MessageRow findMessage(@Param("id") long id);

    @ResultMap("messageRow")
    @Select({"<script>", SELECT_MESSAGE, "FROM sdmq_message WHERE id IN",
            "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach>", "</script>"})
    List<MessageRow> findMessages(@Param("ids") List<Long> ids);

    @ResultMap("messageRow")
    @Select({"<script>", SELECT_MESSAGE, "FROM sdmq_message WHERE status IN", IN_STATUSES,
            "AND id > #{afterId} ORDER BY id LIMIT #{limit}", "</script>"})
    List<MessageRow> findInStatuses(@Param("statuses") Collection<MessageStatus> statuses,
                                    @Param("afterId") long afterId, @Param("limit") int limit);

    @ResultMap("messageRow")
    @Select(SELECT_MESSAGE + """
            FROM sdmq_message
            WHERE status = 'WAIT_PUT' AND update_time < #{updatedBefore}
            ORDER BY due_time LIMIT #{limit}""")
    List<MessageRow> findWaitPut(@Param("updatedBefore") String updatedBefore, @Param("limit") int limit);

    @ResultMap("messageRow")
    @Select({"<script>", SELECT_MESSAGE, "FROM sdmq_message WHERE status IN", IN_STATUSES,
            "AND due_time &lt; #{dueBefore} AND id > #{afterId} ORDER BY id LIMIT #{limit}", "</script>"})
    List<MessageRow> findDueBefore(@Param("statuses") Collection<MessageStatus> statuses,
                                   @Param("dueBefore") String dueBefore, @Param("afterId") long afterId,
                                   @Param("limit") int limit);

    /**
     * A page of a search or a bulk action, keyset by id: {@code newestFirst} below {@code beyondId} by id descending,
     * else above it ascending. The indexes of V3 (topic, id), (status, id) and (biz_key) serve it; a filter on times
     * is tested on the rows read in id order. Without ids or a business key the index is named: MariaDB otherwise
     * reads {@code topic = ?} (or a single {@code status = ?}) as a lookup of the index's first column and tests
     * {@code id > ?} on every entry of the topic from its first, so the n-th page of a bulk action read n pages of
     * entries (a million-message requeue spent most of its time there); named, the index is read as a range from the
     * cursor on. Several statuses and no topic read the primary key in id order.
     */
    @ResultMap("messageRow")
    @Select({"<script>", SELECT_MESSAGE, "FROM sdmq_message",
            "<if test='ids.isEmpty() and bizKey == null'><choose>",
            "<when test='topic != null'>FORCE INDEX (idx_sdmq_message_topic_id)</when>",
            "<when test='statuses.size() == 1'>FORCE INDEX (idx_sdmq_message_status_id)</when>",
            "</choose></if>",
            "WHERE",
            "<choose><when test='newestFirst'>id &lt; #{beyondId}</when><otherwise>id > #{beyondId}</otherwise></choose>",
            "<if test='topic != null'>AND topic = #{topic}</if>",
            "<if test='!statuses.isEmpty()'>AND status IN", IN_STATUSES, "</if>",
            "<if test='bizKey != null'>AND biz_key = #{bizKey}</if>",
            "<if test='!ids.isEmpty()'>AND id IN",
            "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach></if>",
            "<if test='createdFrom != null'>AND create_time >= #{createdFrom}</if>",
            "<if test='createdTo != null'>AND create_time &lt; #{createdTo}</if>",
            "<if test='dueAfter != null'>AND due_time > #{dueAfter}</if>",
            "<if test='dueBefore != null'>AND due_time &lt; #{dueBefore}</if>",
            "ORDER BY id <if test='newestFirst'>DESC</if> LIMIT #{limit}", "</script>"})
    List<MessageRow> search(@Param("topic") String topic, @Param("statuses") Collection<MessageStatus> statuses,
                            @Param("bizKey") String bizKey, @Param("ids") Collection<Long> ids,
                            @Param("createdFrom") String createdFrom, @Param("createdTo") String createdTo,
                            @Param("dueAfter") String dueAfter, @Param("dueBefore") String dueBefore,
                            @Param("newestFirst") boolean newestFirst, @Param("beyondId") long beyondId,
                            @Param("limit") int limit);

    /**
     * Of those ids, the messages still in the status and last changed before {@code changedBefore}, locked until the
     * transaction ends, in id order.
     */
    @Options(flushCache = Options.FlushCachePolicy.TRUE)
    @Select({"<script>SELECT id FROM sdmq_message FORCE INDEX (PRIMARY) WHERE id IN",
            "<foreach item='id' collection='ids' open='(' separator=',' close=')'>#{id}</foreach>",
            "AND status = #{status} AND update_time &lt; #{changedBefore} ORDER BY id FOR UPDATE</script>"})
    List<Long> lockIdsInStatus(@Param("ids") Collection<Long> ids, @Param("status") MessageStatus status,
                               @Param("changedBefore") String changedBefore);

    @Select("SELECT id FROM sdmq_message WHERE topic = #{topic} AND biz_key = #{bizKey}")
    Long findIdByKey(@Param("topic") String topic, @Param("bizKey") String bizKey);

    /**
     * The messages of a business key in any topic, on the {@code (topic, biz_key)} unique key without a schema change:
     * the distinct topics come from a loose scan of that key (one index dive per topic), then each topic's row of the
     * key is one lookup. A topic is renamed in the derived table so that the message's columns stay unambiguous.
     */
    @ResultMap("messageRow")
    @Select(SELECT_MESSAGE + """
            FROM (SELECT DISTINCT topic AS known_topic FROM sdmq_message) topics
            JOIN sdmq_message ON topic = known_topic AND biz_key = #{bizKey}""")
    List<MessageRow> findMessagesByKey(@Param("bizKey") String bizKey);

    @Update("""
            UPDATE sdmq_message
            SET body = #{body}, due_time = #{dueTime},
                delay_ms = TIMESTAMPDIFF(MICROSECOND, create_time, #{dueTime}) DIV 1000, update_time = #{changedAt}
            WHERE id = #{id} AND status IN ('WAIT_PUT', 'DELAY')""")
    int replaceContent(@Param("id") long id, @Param("body") String body, @Param("dueTime") String dueTime,
                       @Param("changedAt") String changedAt);

    /**
     * The ids of messages in the statuses whose due time and last change are both before the cutoff, of one topic
     * when {@code topic} is not null, else of every topic but those in {@code except}. Reads only the part of the
     * (status, due_time) index due before the cutoff, and stops at the limit: sorting by update_time, which no index
     * holds, read every terminal row of the table for each batch.
     */
    @Select({"<script>SELECT id FROM sdmq_message WHERE status IN", IN_STATUSES,
            "AND due_time &lt; #{before} AND update_time &lt; #{before}",
            "<if test='topic != null'>AND topic = #{topic}</if>",
            "<if test='topic == null and !except.isEmpty()'>AND topic NOT IN",
            "<foreach item='t' collection='except' open='(' separator=',' close=')'>#{t}</foreach></if>",
            "LIMIT #{limit}</script>"})
    List<Long> findIdsBefore(@Param("statuses") Collection<MessageStatus> statuses, @Param("before") String before,
                             @Param("topic") String topic, @Param("except") Collection<String> except,
                             @Param("limit") int limit);

    /**
     * A message's status log rows in time order; of rows with the same time, those into one of the statuses come
     * last, then in write order.
     */
    @ConstructorArgs({
            @Arg(column = "message_id", javaType = long.class), @Arg(column = "from_status", javaType = String.class),
            @Arg(column = "to_status", javaType = String.class),
            @Arg(column = "changed_at", javaType = LocalDateTime.class),
            @Arg(column = "bucket", javaType = String.class), @Arg(column = "host", javaType = String.class),
            @Arg(column = "thread", javaType = String.class), @Arg(column = "note", javaType = String.class)})
    @Select({"<script>SELECT message_id, from_status, to_status, changed_at, bucket, host, thread, note",
            "FROM sdmq_message_log WHERE message_id = #{id}",
            "ORDER BY changed_at, to_status IN", IN_STATUSES, ", id</script>"})
    List<StatusLogRow> findStatusLog(@Param("id") long id,
                                     @Param("statuses") Collection<MessageStatus> lastOfTheirTime);
}
