package io.sdmq.server.compat;

import io.sdmq.common.PushRequest;

/**
 * The message object of the original sdmq (peachyy/sdmq's {@code JobMsg}) as its {@code /push} takes it. Its
 * {@code delay} is ms after the push, 0 when absent, as there. The fields that sdmq sets itself or gives no meaning
 * are accepted with any value and ignored: {@code id} (sdmq makes its own), {@code createTime}, {@code status},
 * {@code subtopic}, {@code extendData} and {@code buckedName} (sdmq has nowhere to keep them), and {@code ttl}, which
 * that project stores but never acts on (its README calls it reserved), so it is not taken for a time-to-run: sdmq's
 * default applies. Any other field is refused, as on sdmq's own {@code /push}. {@code priority}, absent from
 * {@code JobMsg}, is sdmq's priority when given.
 */
record SdmqJob(String topic, String bizKey, Long delay, Integer priority, String body,
               Object id, Object createTime, Object status, Object subtopic, Object extendData, Object buckedName,
               Object ttl) {

    /** An empty {@code bizKey} is none, as that project treats it. */
    PushRequest request() {
        return new PushRequest(topic, bizKey == null || bizKey.isEmpty() ? null : bizKey, body,
                delay == null ? 0L : delay, null, priority, null, null, null);
    }
}
