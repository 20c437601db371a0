#!/usr/bin/env bash
# sdmq beside the delay queues the benchmark issue compares it with, in one run on this machine, on the issue's
# workloads but W6 (a restore from MySQL, which none of the peers has): W1 (burst: single pushes from 4 producers,
# delays 2–10 s, 4 consumers), W3 (1 000 pushes/s, delays 1–5 s), W4 (thundering herd: W1's count, pushed 1 000 per
# call, all due within one second), W2 (five times W1's count, pushed 1 000 per call, delays 2–10 s) and W5 (W1
# again after ten times W1's count were preloaded due tomorrow, with the Redis bytes per pending message), against
#   sdmq          the server jar on the local Redis and MariaDB, warmed up as bench/run.sh does; then W1 and W3
#                 again through the Java client (labels sdmq-client, sdmq-client-async: W1 with pushAsync);
#   redisson      Redisson's RDelayedQueue on the same Redis (in the bench's JVM, full JIT, after a W1 of 20 000;
#                 a batch is its offers sent before the first reply is awaited);
#   db-scheduler  db-scheduler on the same MariaDB (likewise; a batch is one scheduleBatch call; it keeps nothing in
#                 Redis, so W5 has no bytes for it);
#   bullmq        BullMQ on the same Redis, in Node.js (bench/peers/bullmq.js, after a W1 of 20 000; a batch is one
#                 addBulk call), when node and npm are installed.
# One target at a time: the sdmq server is stopped before the peers run. Appends two tables with sdmq's lead over each
# (and every command) to a new file in bench/results/.
#
#   bench/peers.sh [W1_MESSAGES] [W3_SECONDS]     default 100000 and 60, the issue's sizes (W2 500 000, W5 1 000 000)
#   PEERS            the peers to run (default "redisson db-scheduler bullmq")
#   PEER_WORKLOADS   the workloads to run, in this order (default "W1 W3 W4 W2 W5"; W5 leaves its preload pending, so
#                    it goes last)
#   BENCH_MD         the file the results are appended to (default bench/results/DATE-COMMIT-peers.md)
#
# All traffic goes to 127.0.0.1; raw files go to sdmq-bench/target/peers/peers-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

W1_N=${1:-100000}
W3_S=${2:-60}
PEERS=${PEERS:-redisson db-scheduler bullmq}
PEER_WORKLOADS=${PEER_WORKLOADS:-W1 W3 W4 W2 W5}
COMMIT=$(git describe --always --dirty)
MD=${BENCH_MD:-bench/results/$(date -u +%Y-%m-%d-%H%M)-$(git describe --always)-peers.md}
LOAD_START=$(uptime)

echo "building (mvnw package)"
./mvnw -q -DskipTests package
JAVA_OPTS="-XX:+UseParallelGC"
start_side sdmq-server/target/sdmq-server-0.1.0-SNAPSHOT.jar peers 18095 sdmq_peers peers
# the peers' Redis keys live under $PREFIX too; db-scheduler's database is its own
trap 'cleanup; mariadb -h 127.0.0.1 -P 3306 -uroot -e "DROP DATABASE IF EXISTS sdmq_peer" || true' EXIT
RESULTS=$OUT/results.jsonl
PIDS=(--mariadb-pid "$(pgrep -x mariadbd | head -1)" --redis-pid "$(pgrep -x redis-server | head -1)")
: >"$OUT/commands.txt"
# logs the command, then runs it with its output in bench.log
logged() {
    printf '%q ' "$@" >>"$OUT/commands.txt"
    echo >>"$OUT/commands.txt"
    "$@" >>"$OUT/bench.log" 2>&1
}
sdmq() {
    bench_jvm "${BENCH_TARGET[@]}" "$@" >>"$OUT/bench.log" 2>&1
}
W1_ARGS=(--workload W1 --messages "$W1_N" --producers 4 --consumers 4)
W2_ARGS=(--workload W2 --messages $((5 * W1_N)) --producers 4 --consumers 4)
W3_ARGS=(--workload W3 --rate 1000 --duration "$W3_S" --inflight 256 --consumers 4)
W4_ARGS=(--workload W4 --messages "$W1_N" --producers 4 --consumers 4)
W5_ARGS=(--workload W5 --messages "$W1_N" --preload $((10 * W1_N)) --producers 4 --consumers 4)
# the measured workloads, each a run of the given command
measured() {
    local workload args
    for workload in $PEER_WORKLOADS; do
        args="${workload}_ARGS[@]"
        logged "$@" "${!args}" --out "$RESULTS" "${PIDS[@]}"
    done
}

echo "sdmq: warm-up, then $PEER_WORKLOADS (W1 $W1_N, W3 $W3_S s)"
warm_up sdmq
# the machine's raw Redis and MariaDB limits, for the reader to see how slow or fast this host was
logged "${BENCH_JVM[@]}" "${BENCH_TARGET[@]}" --workload raw \
    --messages 200000 --jdbc jdbc:mysql://127.0.0.1:3306/ --out "$RESULTS"
measured "${BENCH_JVM[@]}" "${BENCH_TARGET[@]}" --label sdmq
# the same server through the Java client: W1 with each producer waiting for its push, then pushing without waiting
# (pushAsync), and W3; its consumers make one call per batch (POST /get with the last batch's finishes, 20 ms linger)
logged "${BENCH_JVM[@]}" "${BENCH_TARGET[@]}" "${W1_ARGS[@]}" --via client --label sdmq-client --out "$RESULTS" \
    "${PIDS[@]}"
logged "${BENCH_JVM[@]}" "${BENCH_TARGET[@]}" "${W3_ARGS[@]}" --via client --label sdmq-client --out "$RESULTS" \
    "${PIDS[@]}"
logged "${BENCH_JVM[@]}" "${BENCH_TARGET[@]}" "${W1_ARGS[@]}" --via client --push async --label sdmq-client-async \
    --out "$RESULTS" "${PIDS[@]}"
stop_server

for peer in $PEERS; do
    echo "$peer: $PEER_WORKLOADS"
    PEER_ARGS=(--label "$peer" --warmup 20000 --prefix "$PREFIX:$peer")
    if [ "$peer" = bullmq ]; then
        if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
            echo "bullmq skipped: node and npm are not installed"
            continue
        fi
        (cd bench/peers && npm ci --silent --no-audit --no-fund)
        measured timeout 900 node bench/peers/bullmq.js "${PEER_ARGS[@]}"
    else
        measured timeout 900 java -Xmx4g -jar "$BENCH_JAR" --peer "$peer" "${PEER_ARGS[@]}"
    fi
done
LOAD_END=$(uptime)

{
    echo
    echo "## sdmq beside its peers, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- command: \`bench/peers.sh $W1_N $W3_S\` at commit \`$COMMIT\` (PEERS=\"$PEERS\"," \
        "PEER_WORKLOADS=\"$PEER_WORKLOADS\")"
    echo "- machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB, $(java -version 2>&1 | head -1)," \
        "node $(node --version 2>/dev/null || echo none); \`uptime\` at start: \`${LOAD_START# }\`, at end: \`${LOAD_END# }\`"
    echo "- sdmq server: \`java ${JAVA_OPTS:+$JAVA_OPTS }-jar $SERVER_JAR ${SERVER_ARGS[*]}\`, warmed up as in bench/run.sh"
    echo
    echo "The exact commands of the measured runs:"
    echo
    results_markdown --compare
} >>"$MD"
echo "results appended to $MD; raw files in $OUT"
