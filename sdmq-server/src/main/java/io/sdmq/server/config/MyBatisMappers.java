package io.sdmq.server.config;

import io.sdmq.core.mysql.MessageMapper;
import org.apache.ibatis.annotations.Mapper;
import org.mybatis.spring.annotation.MapperScan;
import org.springframework.context.annotation.Configuration;

/**
 * Registers sdmq-core's MyBatis mappers as beans, on the SqlSessionFactory that the MyBatis starter builds from the
 * Boot DataSource. The starter finds {@code @Mapper} interfaces by itself only in this application's packages.
 */
@Configuration(proxyBeanMethods = false)
@MapperScan(basePackageClasses = MessageMapper.class, annotationClass = Mapper.class)
class MyBatisMappers {
}
