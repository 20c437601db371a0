#!/usr/bin/env bash
# One side of an A/B comparison: starts the given server jar on the local Redis and MariaDB (fresh database
# sdmq_ab, fresh key prefix), warms its JIT up as bench/run.sh does, runs the given workloads from separate bench
# JVMs and prints, per workload, the CPU seconds of the server, mariadbd and redis-server and the bench's key
# figures. Run the two jars in turn, several times each (A B A B ...): the host's speed drifts within minutes.
#
#   bench/ab.sh SERVER_JAR LABEL
#
#   AB_WORKLOADS     workloads with their size (default "W1:10000 W3:30"): W1, W2, W4, W5 take a message count,
#                    W3 a duration in seconds at 1 000 msgs/s
#   AB_JAVA_OPTS     extra server JVM options (the parallel collector is always on, as in bench/run.sh)
#   AB_SERVER_ARGS   extra server arguments, e.g. --sdmq.consumer.blocking-wait=0
#   AB_WARMUP        0 skips the two W1 warm-ups (default 1)
#   AB_PROFILE       1 attaches async-profiler (AB_PROFILER_LIB, libasyncProfiler.so from the
#                    tools.profiler:async-profiler jar) over the measured workloads, collapsed stacks per thread
#
# The bench jar comes from sdmq-bench/target (./mvnw -q -Pbench -DskipTests package). All traffic stays on
# 127.0.0.1 (port 18090); raw files go to sdmq-bench/target/ab/<label>-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

SERVER_JAR=$(realpath "$1")
LABEL=$2
BENCH_JAR=sdmq-bench/target/sdmq-bench-0.1.0-SNAPSHOT.jar
PORT=18090
DB=sdmq_ab
PREFIX=sdmqab-$(date +%s%N)
OUT=sdmq-bench/target/ab/$LABEL-$(date +%H%M%S)
mkdir -p "$OUT"

mariadb -h 127.0.0.1 -P 3306 -uroot -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
# shellcheck disable=SC2086 # option lists
java -XX:+UseParallelGC ${AB_JAVA_OPTS:-} -jar "$SERVER_JAR" --server.port=$PORT \
    --spring.data.redis.url=redis://127.0.0.1:6379 --spring.datasource.url=jdbc:mysql://127.0.0.1:3306/$DB \
    --spring.datasource.username=root --spring.datasource.password= --sdmq.key-prefix="$PREFIX" \
    --sdmq.recovery.auto-restore=false ${AB_SERVER_ARGS:-} >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
cleanup() {
    kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    redis-cli -h 127.0.0.1 -p 6379 --scan --pattern "$PREFIX:*" \
        | xargs -r -n 500 redis-cli -h 127.0.0.1 -p 6379 DEL >/dev/null || true
    mariadb -h 127.0.0.1 -P 3306 -uroot -e "DROP DATABASE IF EXISTS $DB" || true
}
trap cleanup EXIT
for _ in $(seq 120); do
    curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null && break
    sleep 1
done

bench() {
    timeout 900 java -Xmx4g -XX:TieredStopAtLevel=1 -jar "$BENCH_JAR" --url "http://127.0.0.1:$PORT" \
        --redis redis://127.0.0.1:6379 --prefix "$PREFIX" --server-pid "$SERVER_PID" \
        --server-db "jdbc:mysql://127.0.0.1:3306/$DB" --scale 1 "$@" >>"$OUT/bench.log" 2>&1
}
cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}
profiler() {
    jcmd "$SERVER_PID" JVMTI.agent_load "$AB_PROFILER_LIB" "\"$1\"" >/dev/null
}

if [ "${AB_WARMUP:-1}" = 1 ]; then
    bench --workload W1 --label warmup --messages 20000 --producers 16 --drain 10 --out "$OUT/warmup.jsonl"
    bench --workload W1 --label warmup-4p --messages 10000 --producers 4 --drain 10 --out "$OUT/warmup.jsonl"
fi
[ "${AB_PROFILE:-0}" = 1 ] && profiler "start,event=cpu,interval=1ms,threads"
MARIADB_PID=$(pgrep -x mariadbd | head -1)
REDIS_PID=$(pgrep -x redis-server | head -1)
HZ=$(getconf CLK_TCK)
for workload in ${AB_WORKLOADS:-W1:10000 W3:30}; do
    name=${workload%%:*}
    size=${workload#*:}
    before="$(cpu_ticks "$SERVER_PID") $(cpu_ticks "$MARIADB_PID") $(cpu_ticks "$REDIS_PID")"
    case $name in
        W3) bench --workload W3 --rate 1000 --duration "$size" --inflight 256 --consumers 4 --out "$OUT/results.jsonl" ;;
        *) bench --workload "$name" --messages "$size" --producers 4 --consumers 4 --out "$OUT/results.jsonl" ;;
    esac
    after="$(cpu_ticks "$SERVER_PID") $(cpu_ticks "$MARIADB_PID") $(cpu_ticks "$REDIS_PID")"
    echo "$before $after" | awk -v label="$LABEL $workload" -v hz="$HZ" \
        '{ printf "%s: CPU s server %.2f, mariadb %.2f, redis %.2f\n", label, ($4-$1)/hz, ($5-$2)/hz, ($6-$3)/hz }'
    tail -1 "$OUT/results.jsonl" | tr -d '{}"' | tr ',' '\n' | grep -E '^(pushRate|pushCallP50Ms|latenessP50Ms|latenessP99Ms|latenessP999Ms|lastDeliveryAfterDueSecondMs|lost|early|duplicates|finishCallAvgMs|idsPerFinish|benchCpuSeconds):' | paste -sd ' ' | sed 's/^/  /'
done
[ "${AB_PROFILE:-0}" = 1 ] && profiler "stop,collapsed,file=$(realpath "$OUT")/profile.txt"
echo "raw files in $OUT"
