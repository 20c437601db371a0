package io.sdmq.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class SdmqServerApplication {
    public static void main(String[] args) {
        SpringApplication.run(SdmqServerApplication.class, args);
    }
}
