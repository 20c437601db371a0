package io.sdmq.testing;

import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The services tests run against: a fresh database with the migrated tables, a fresh Redis key prefix. */
class FreshServicesIT {

    @Test
    void fresh_database_holds_the_migrated_tables() throws Exception {
        DataSource ds = TestServices.freshDatabase().dataSource();
        try (Connection c = ds.getConnection();
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
                             + " AND table_name IN ('sdmq_message', 'sdmq_message_log')")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(2);
        }
    }

    @Test
    void redis_answers_and_prefixes_are_fresh() {
        String prefix = TestServices.freshKeyPrefix();
        TestServices.redisTemplate().opsForValue().set(prefix + ":k", "v");
        assertThat(TestServices.redisTemplate().opsForValue().get(prefix + ":k")).isEqualTo("v");
        assertThat(TestServices.freshKeyPrefix()).isNotEqualTo(prefix);
        TestServices.redisTemplate().delete(prefix + ":k");
    }
}
