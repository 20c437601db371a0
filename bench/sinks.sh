#!/usr/bin/env bash
# Push delivery (W8): builds the server and the bench, starts the server jar on the local Redis and MariaDB (fresh
# database and key prefix) with webhooks to 127.0.0.1 allowed and the local RabbitMQ, warms it up (the pull workloads,
# then small W8 runs to each sink side), then runs W8 in
# rounds, each side in turn: consumers that poll, a webhook receiver in the bench process, a RabbitMQ queue the bench
# consumes. Each run pushes N messages due uniformly over 10 s (after a lead that covers the pushes); the receiver's
# clock gives the lateness. Results go to a new file in bench/results/.
#
#   bench/sinks.sh [N]        N messages per run (default 100000, the issue's size)
#
#   SINK_ROUNDS   rounds of the three sides (default 2)
#   SINK_SIDES    the sides, in each round's order (default "pull webhook rabbitmq")
#   SINK_WARMUPS  small W8 runs to each sink side before the rounds (default 4: with one, C2 still compiled
#                 through the measured run, a third of the server's CPU there)
#   RABBITMQ_URL  the broker (default amqp://guest:guest@127.0.0.1:5672; the server gets its host and port)
#   SINK_SERVER_JAR  the server jar to run (default the one this build makes), e.g. an older build for an A/B pair
#   SINK_SERVER_ARGS more server arguments, e.g. "--sdmq.delivery.batch=500"
#   SINK_JAVA_OPTS   more server JVM options (the parallel collector is always on), e.g. "-Xlog:gc:file=gc.log"
#
# All traffic stays on 127.0.0.1 (port 18096).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

N=${1:-100000}
ROUNDS=${SINK_ROUNDS:-2}
SIDES=${SINK_SIDES:-pull webhook rabbitmq}
WARMUPS=${SINK_WARMUPS:-4}
RABBITMQ_URL=${RABBITMQ_URL:-amqp://guest:guest@127.0.0.1:5672}
COMMIT=$(git describe --always --dirty)
MD=${BENCH_MD:-bench/results/$(date -u +%Y-%m-%d-%H%M)-$(git describe --always)-sinks.md}
LOAD_START=$(uptime)

echo "building (mvnw package)"
./mvnw -q -DskipTests package
JAVA_OPTS="-XX:+UseParallelGC ${SINK_JAVA_OPTS:-}"
# shellcheck disable=SC2206 # SINK_SERVER_ARGS is a list of arguments
SERVER_EXTRA_ARGS=(--sdmq.delivery.webhook.allowed-hosts=127.0.0.1 --spring.rabbitmq.addresses="$RABBITMQ_URL"
    ${SINK_SERVER_ARGS:-})
start_side "${SINK_SERVER_JAR:-sdmq-server/target/sdmq-server-0.1.0-SNAPSHOT.jar}" sinks 18096 sdmq_sinks sinks
RESULTS=$OUT/results.jsonl
PIDS=(--mariadb-pid "$(pgrep -x mariadbd | head -1)" --redis-pid "$(pgrep -x redis-server | head -1)")
: >"$OUT/commands.txt"
sdmq() {
    bench_jvm "${BENCH_TARGET[@]}" "$@" >>"$OUT/bench.log" 2>&1
}
warm_up sdmq
# and each sink's own path (its client, the dispatcher), which the pull workloads leave cold: W8 small, not reported
for side in $SIDES; do
    if [ "$side" != pull ]; then
        for _ in $(seq "$WARMUPS"); do
            sdmq --workload W8 --messages 20000 --spread 4 --label "warmup-$side" --sink "$side" \
                --rabbitmq "$RABBITMQ_URL" --out "$OUT/warmup.jsonl"
        done
    fi
done
for round in $(seq "$ROUNDS"); do
    for side in $SIDES; do
        echo "round $round: $side"
        ARGS=(--workload W8 --messages "$N" --label "$side" --rabbitmq "$RABBITMQ_URL" --out "$RESULTS" "${PIDS[@]}")
        if [ "$side" != pull ]; then
            ARGS+=(--sink "$side")
        fi
        printf '%q ' java -jar "$BENCH_JAR" "${BENCH_TARGET[@]}" "${ARGS[@]}" >>"$OUT/commands.txt"
        echo >>"$OUT/commands.txt"
        sdmq "${ARGS[@]}"
    done
done
LOAD_END=$(uptime)
stop_server

{
    echo
    echo "## Push delivery (W8), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- command: \`bench/sinks.sh $N\` at commit \`$COMMIT\` (SINK_ROUNDS=$ROUNDS, SINK_SIDES=\"$SIDES\")"
    echo "- machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB, $(java -version 2>&1 | head -1);" \
        "\`uptime\` at start: \`${LOAD_START# }\`, at end: \`${LOAD_END# }\`"
    echo "- server: \`java ${JAVA_OPTS:+$JAVA_OPTS }-jar $SERVER_JAR ${SERVER_ARGS[*]}\`"
    echo
    echo "| side | delivered | deliveries/s | p50 ms | p99 ms | lost | duplicates | early | server CPU s |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    ROW='"| \(.label) | \(.delivered) | \(.deliveryRate) | \(.latenessP50Ms) | \(.latenessP99Ms) | \(.lost) | '
    ROW+='\(.duplicates) | \(.early) | \(.serverCpuSeconds) |"'
    jq -r "$ROW" "$RESULTS"
    echo
    results_markdown --report
} >>"$MD"
echo "results appended to $MD; raw files in $OUT"
