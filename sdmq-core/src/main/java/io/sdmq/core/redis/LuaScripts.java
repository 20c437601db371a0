package io.sdmq.core.redis;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

import java.util.List;

/** The Lua scripts of {@code lua/*.lua}, each read once and run by its SHA1 (EVALSHA). */
final class LuaScripts {
    static final RedisScript<Long> PUSH = load("push", Long.class);
    static final RedisScript<List<Object>> MOVE_DUE = load("move_due", listType());
    static final RedisScript<List<Object>> POP = load("pop", listType());
    static final RedisScript<Long> FINISH = load("finish", Long.class);
    static final RedisScript<String> DELETE = load("delete", String.class);
    static final RedisScript<List<Object>> NACK = load("nack", listType());
    static final RedisScript<String> TOUCH = load("touch", String.class);
    static final RedisScript<String> RESCHEDULE = load("reschedule", String.class);
    static final RedisScript<Long> RESTORE_ONE = load("restore_one", Long.class);
    static final RedisScript<List<Object>> REQUEUE_EXPIRED = load("requeue_expired", listType());
    static final RedisScript<Long> COMPARE_AND_PEXPIRE = load("compare_and_pexpire", Long.class);
    static final RedisScript<Long> COMPARE_AND_DEL = load("compare_and_del", Long.class);

    private LuaScripts() {
    }

    private static <T> RedisScript<T> load(String name, Class<T> resultType) {
        DefaultRedisScript<T> script = new DefaultRedisScript<>();
        script.setLocation(new ClassPathResource("lua/" + name + ".lua"));
        script.setResultType(resultType);
        script.afterPropertiesSet();
        script.getSha1();
        return script;
    }

    @SuppressWarnings("unchecked")
    private static Class<List<Object>> listType() {
        return (Class<List<Object>>) (Class<?>) List.class;
    }
}
