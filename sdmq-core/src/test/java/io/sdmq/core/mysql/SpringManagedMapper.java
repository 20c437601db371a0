package io.sdmq.core.mysql;

import org.mybatis.spring.SqlSessionFactoryBean;
import org.mybatis.spring.mapper.MapperFactoryBean;

import javax.sql.DataSource;

/**
 * Builds {@link MessageMapper} as the server's MyBatis Spring Boot starter does, without Spring Boot: a session factory
 * over the DataSource with Spring-managed transactions, and the mapper from a {@link MapperFactoryBean}.
 */
final class SpringManagedMapper {
    private SpringManagedMapper() {
    }

    static MessageMapper over(DataSource dataSource) {
        try {
            SqlSessionFactoryBean sessions = new SqlSessionFactoryBean();
            sessions.setDataSource(dataSource);
            MapperFactoryBean<MessageMapper> mapper = new MapperFactoryBean<>(MessageMapper.class);
            mapper.setSqlSessionFactory(sessions.getObject());
            mapper.afterPropertiesSet();
            return mapper.getObject();
        } catch (Exception e) {
            throw new IllegalStateException("could not build the MyBatis mapper", e);
        }
    }

    /** The adapter over the DataSource, as the server builds it. */
    static MySqlMessageLog messageLog(DataSource dataSource, String host) {
        return new MySqlMessageLog(over(dataSource), dataSource, host);
    }
}
