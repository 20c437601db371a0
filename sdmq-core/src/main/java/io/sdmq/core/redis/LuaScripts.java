package io.sdmq.core.redis;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Lua scripts of {@code lua/*.lua}, each read once and run by its SHA1 (EVALSHA). They are held as text: a
 * script made from a resource checks the resource's modification time on every call, which cost a tenth of the
 * server's CPU under load.
 */
final class LuaScripts {
    /** The retry rule, one copy for the two scripts that give messages back. */
    private static final String RETRY_RULE = text("retry");
    static final RedisScript<Long> PUSH = load("push", Long.class);
    static final RedisScript<List<Object>> PUSH_READY = load("push_ready", listType());
    static final RedisScript<List<Object>> MOVE_DUE = load("move_due", listType());
    static final RedisScript<List<Object>> POP = load("pop", listType());
    static final RedisScript<List<Object>> FINISH = load("finish", listType());
    static final RedisScript<List<Object>> DELETE = load("delete", listType());
    static final RedisScript<List<Object>> NACK = load("nack", listType(), RETRY_RULE);
    static final RedisScript<String> TOUCH = load("touch", String.class);
    static final RedisScript<List<Object>> RESCHEDULE = load("reschedule", listType());
    static final RedisScript<List<Object>> WARM = load("warm", listType());
    static final RedisScript<List<Object>> RESTORE = load("restore", listType());
    static final RedisScript<List<Object>> REQUEUE_EXPIRED = load("requeue_expired", listType(), RETRY_RULE);
    static final RedisScript<Long> COMPARE_AND_PEXPIRE = load("compare_and_pexpire", Long.class);
    static final RedisScript<Long> COMPARE_AND_DEL = load("compare_and_del", Long.class);
    static final RedisScript<Long> TOPIC_GRANT = load("topic_grant", Long.class);
    static final RedisScript<Long> TOPIC_TAKEN = load("topic_taken", Long.class);
    static final RedisScript<Long> TOPIC_EXTEND = load("topic_extend", Long.class);

    private LuaScripts() {
    }

    private static <T> RedisScript<T> load(String name, Class<T> resultType) {
        return RedisScript.of(text(name), resultType);
    }

    /** A script with a library of functions put in front of it. */
    private static <T> RedisScript<T> load(String name, Class<T> resultType, String library) {
        return RedisScript.of(library + "\n" + text(name), resultType);
    }

    private static String text(String name) {
        ClassPathResource resource = new ClassPathResource("lua/" + name + ".lua");
        try {
            return resource.getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<List<Object>> listType() {
        return (Class<List<Object>>) (Class<?>) List.class;
    }
}
