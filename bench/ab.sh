#!/usr/bin/env bash
# One side of an A/B comparison: starts the given server jar on the local Redis and MariaDB (fresh database
# sdmq_ab, fresh key prefix), warms its JIT up as bench/run.sh does (both use bench/common.sh), runs the given
# workloads from separate bench JVMs and prints, per workload, the CPU seconds of the server, mariadbd and
# redis-server and the bench's key figures. Run the two jars in turn, several times each (A B A B ...): the host's
# speed drifts within minutes.
#
#   bench/ab.sh SERVER_JAR LABEL
#
#   AB_WORKLOADS     workloads with their size (default "W1:10000 W3:30"): W1, W2, W4, W5 take a message count,
#                    W3 a duration in seconds at 1 000 msgs/s, or at another rate as in W3:30@500, W6 how many to
#                    preload before the restore
#   AB_PRODUCERS     producers of W1, W2, W4 and W5 (default 4, as the issue has them)
#   AB_CONSUMERS     consumers of W1 to W5 (default 4, as the issue has them)
#   AB_JAVA_OPTS     extra server JVM options (the parallel collector is always on, as in bench/run.sh)
#   AB_SERVER_ARGS   extra server arguments, e.g. --sdmq.journal.linger=20ms
#   AB_BENCH_ARGS    extra arguments of the measured workloads, e.g. "--via client" or "--via client --push async"
#   AB_WARMUP        0 skips the warm-ups (default 1)
#   AB_INSTANCES     2 starts a second instance on the next port, same database and key prefix; the bench talks to
#                    the first, "server" CPU is both together (default 1)
#   BENCH_JAR        the bench jar (default sdmq-bench/target/sdmq-bench-0.1.0-SNAPSHOT.jar); one built from another
#                    commit compares two versions of sdmq-client against one server jar
#   BENCH_JAVA_OPTS  extra options of the bench JVMs, e.g. an -agentpath for async-profiler to profile the client
#   AB_PROFILE       1 attaches async-profiler (AB_PROFILER_LIB, libasyncProfiler.so from the
#                    tools.profiler:async-profiler jar) over the measured workloads, collapsed stacks per thread
#   AB_PORT, AB_DB   the server's port (default 18090) and fresh database (default sdmq_ab): others, for a run beside
#                    another one on the same host
#   AB_PROFILE_EVENT the profiler's event (default cpu; wall samples threads that wait too, to see what they wait on)
#                    (alloc samples allocations; the interval of 1ms then reads as about 1 MB between samples)
#
# The bench jar comes from sdmq-bench/target (./mvnw -q -DskipTests package). All traffic stays on
# 127.0.0.1 (port 18090 unless AB_PORT says otherwise); raw files go to sdmq-bench/target/ab/<label>-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=bench/common.sh
. bench/common.sh

JAVA_OPTS="-XX:+UseParallelGC ${AB_JAVA_OPTS:-}"
# shellcheck disable=SC2206 # a list of arguments
SERVER_EXTRA_ARGS=(${AB_SERVER_ARGS:-})
start_side "$1" "$2" "${AB_PORT:-18090}" "${AB_DB:-sdmq_ab}" ab
SERVER_PIDS=$SERVER_PID
if [ "${AB_INSTANCES:-1}" = 2 ]; then
    launch_server $((PORT + 1)) "$OUT/server-2.log"
    SERVER_PIDS="$SERVER_PID $LAUNCHED_PID"
fi

# shellcheck disable=SC2206 # a list of arguments
BENCH_EXTRA_ARGS=(${AB_BENCH_ARGS:-})
bench() {
    bench_jvm "${BENCH_TARGET[@]}" --scale 1 "$@" "${BENCH_EXTRA_ARGS[@]}" >>"$OUT/bench.log" 2>&1
}
profiler() {
    jcmd "$SERVER_PID" JVMTI.agent_load "$AB_PROFILER_LIB" "\"$1\"" >/dev/null
}

if [ "${AB_WARMUP:-1}" = 1 ]; then
    warm_up bench
fi
[ "${AB_PROFILE:-0}" = 1 ] && profiler "start,event=${AB_PROFILE_EVENT:-cpu},interval=1ms,threads"
HZ=$(getconf CLK_TCK)
CONSUMERS=${AB_CONSUMERS:-4}
for workload in ${AB_WORKLOADS:-W1:10000 W3:30}; do
    name=${workload%%:*}
    size=${workload#*:}
    # shellcheck disable=SC2086 # a list of pids
    before="$(cpu_ticks $SERVER_PIDS)"
    case $name in
        W3) rate=1000
            [[ $size == *@* ]] && rate=${size#*@}
            bench --workload W3 --rate "$rate" --duration "${size%@*}" --inflight 256 --consumers "$CONSUMERS" \
                --out "$OUT/results.jsonl" ;;
        W6) bench --workload W6 --preload "$size" --out "$OUT/results.jsonl" ;;
        *) bench --workload "$name" --messages "$size" --producers "${AB_PRODUCERS:-4}" --consumers "$CONSUMERS" \
               --out "$OUT/results.jsonl" ;;
    esac
    # shellcheck disable=SC2086 # a list of pids
    after="$(cpu_ticks $SERVER_PIDS)"
    echo "$before $after" | awk -v label="$LABEL $workload" -v hz="$HZ" \
        '{ printf "%s: CPU s server %.2f, mariadb %.2f, redis %.2f\n", label, ($4-$1)/hz, ($5-$2)/hz, ($6-$3)/hz }'
    tail -1 "$OUT/results.jsonl" | tr -d '{}"' | tr ',' '\n' | grep -E '^(pushRate|callsPerMessage|pushCallP50Ms|latenessP50Ms|latenessP99Ms|latenessP999Ms|lastDeliveryAfterDueSecondMs|lost|early|duplicates|finishCallAvgMs|idsPerFinish|restoreRate|restored|requeueRate|requeued|missing|requeueServerCpuSeconds|requeueMariadbCpuSeconds|requeueRedisCpuSeconds|deliveryRate|benchCpuSeconds):' | paste -sd ' ' | sed 's/^/  /'
done
[ "${AB_PROFILE:-0}" = 1 ] && profiler "stop,collapsed,file=$(realpath "$OUT")/profile.txt"
echo "raw files in $OUT"
