package io.sdmq.core.spi;

class InMemoryMessageLogTest extends MessageLogContract {
    @Override
    protected MessageLog newLog() {
        return new InMemoryMessageLog();
    }
}
