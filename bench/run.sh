#!/usr/bin/env bash
# Benchmarks sdmq on this machine: builds the server and the bench, starts the server jar on the local Redis
# (127.0.0.1:6379) and MariaDB (127.0.0.1:3306, root, empty password) with a fresh database and a fresh key
# prefix, measures the raw Redis and MariaDB limits, runs the workloads W1..W6 of the benchmark issue from a
# separate JVM, stops the server, cleans up, and writes the results to a new file in bench/results/.
#
#   BENCH_SCALE       fraction of the issue's message counts and of W3's duration (default 0.05)
#   BENCH_PORT        the server's HTTP port (default 18080)
#   BENCH_JFR         1 (default): the server JVM runs with a JFR recording (-XX:StartFlightRecording, written
#                     when it stops); the W1 window of it is summarised in BENCHMARKS.md
#   BENCH_MD          the file the results are appended to (default bench/results/DATE-COMMIT-full.md)
#   SERVER_JAVA_OPTS  the server JVM's options (default -XX:+UseParallelGC, as README recommends; e.g. -Xmx2g)
#
# All traffic goes to 127.0.0.1; every step is bounded in count and time.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

SCALE=${BENCH_SCALE:-0.05}
PORT=${BENCH_PORT:-18080}
JFR=${BENCH_JFR:-1}
DB=sdmq_bench
PREFIX=sdmqbench-$(date +%s)
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
# before the report is written, so that a run of a clean tree does not look dirty
COMMIT=$(git describe --always --dirty)
MD=${BENCH_MD:-bench/results/$(date -u +%Y-%m-%d-%H%M)-$(git describe --always)-full.md}
OUT=sdmq-bench/target/runs/$STAMP
SERVER_JAR=sdmq-server/target/sdmq-server-0.1.0-SNAPSHOT.jar
RESULTS=$OUT/results.jsonl

# n scaled, rounded, at least $2
scaled() {
    awk -v n="$1" -v s="$SCALE" -v min="$2" 'BEGIN { v = int(n * s + 0.5); print (v < min ? min : v) }'
}

W1_N=$(scaled 100000 1000)
W2_N=$(scaled 500000 1000)
W3_S=$(scaled 60 10)
W4_N=$(scaled 100000 1000)
W5_PRELOAD=$(scaled 1000000 1000)
RAW_N=$(scaled 1000000 10000)

mkdir -p "$OUT"
LOAD_START=$(uptime)

trap cleanup EXIT

echo "building (mvnw package)"
./mvnw -q -DskipTests package

JAVA_OPTS=${SERVER_JAVA_OPTS:--XX:+UseParallelGC}
if [ "$JFR" = 1 ]; then
    # from the start, so JFR's own instrumentation does not deoptimise warm code in the middle of the run
    JAVA_OPTS="${JAVA_OPTS:+$JAVA_OPTS }-XX:StartFlightRecording=name=bench,settings=profile,filename=$OUT/server.jfr"
fi
start_server
echo "server pid $SERVER_PID on port $PORT, log $OUT/server.log"

COMMON=("${BENCH_TARGET[@]}" --out "$RESULTS" --scale "$SCALE")
: >"$OUT/commands.txt"
bench() {
    printf '%q ' java -XX:TieredStopAtLevel=1 -jar "$BENCH_JAR" "${COMMON[@]}" "$@" >>"$OUT/commands.txt"
    echo >>"$OUT/commands.txt"
    bench_jvm "${COMMON[@]}" "$@"
}

warm_up bench
bench --workload raw --messages "$RAW_N" --jdbc jdbc:mysql://127.0.0.1:3306/ --db-user root --db-password ''
W1_FROM=$(date +%s%3N)
bench --workload W1 --messages "$W1_N" --producers 4 --consumers 4
W1_TO=$(date +%s%3N)
LOAD_W1=$(uptime)
# W1 with 32 producers: how push rate and lateness move with more requests in flight (group commit)
bench --workload W1 --label W1-p32 --messages "$W1_N" --producers 32 --consumers 4
bench --workload W2 --messages "$W2_N" --producers 4 --consumers 4
bench --workload W3 --rate 1000 --duration "$W3_S" --inflight 256 --consumers 4
bench --workload W4 --messages "$W4_N" --producers 4 --consumers 4
bench --workload W5 --messages "$W1_N" --preload "$W5_PRELOAD" --producers 4 --consumers 4
bench --workload W6 --preload 0
LOAD_END=$(uptime)
stop_server

{
    echo
    echo "## Run of $(date -u '+%Y-%m-%d %H:%M UTC'), scale $SCALE"
    echo
    echo "- command: \`BENCH_SCALE=$SCALE bench/run.sh\` at commit \`$COMMIT\`"
    echo "- scale $SCALE: raw $RAW_N ZADDs and $RAW_N INSERT rows; W1 $W1_N msgs (and again with 32 producers);" \
        "W2 $W2_N msgs; W3 1 000 msgs/s offered for $W3_S s; W4 $W4_N msgs; W5 W1 again ($W1_N msgs) after $W5_PRELOAD preloaded;" \
        "W6 restore of those $W5_PRELOAD"
    echo "- machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB, $(java -version 2>&1 | head -1)," \
        "shared with other work; \`uptime\` at start: \`${LOAD_START# }\`, after W1: \`${LOAD_W1# }\`," \
        "at end: \`${LOAD_END# }\`"
    echo "- server: \`java ${JAVA_OPTS:+$JAVA_OPTS }-jar $SERVER_JAR ${SERVER_ARGS[*]}\`; the bench runs in its own JVM"
    echo
    echo "The exact bench commands:"
    echo
    results_markdown --report
    if [ "$JFR" = 1 ]; then
        echo
        echo "### Where the server's CPU went during W1 (JFR, settings=profile)"
        echo
        echo "\`java -jar $BENCH_JAR --jfr $OUT/server.jfr --top 12 --from $W1_FROM --to $W1_TO\`"
        echo
        java -jar "$BENCH_JAR" --jfr "$OUT/server.jfr" --top 12 --from "$W1_FROM" --to "$W1_TO"
    fi
} >>"$MD"
echo "results appended to $MD; raw files in $OUT"
