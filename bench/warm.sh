#!/usr/bin/env bash
# How fast the warmer brings cold messages in (docs/architecture.md, Cold messages): preloads W5's messages due tomorrow (cold,
# since they are due beyond sdmq.scheduler.cold-after) into a fresh database, restarts the server with
# --sdmq.scheduler.cold-after=0, which warms everything cold at once, and times until no cold id is left.
#
#   bench/warm.sh [SERVER_JAR] [MESSAGES]     (default: the built server jar, 1 000 000)
#
# Needs the local Redis and MariaDB; port 18097, database sdmq_warm, a fresh key prefix, all removed afterwards. The
# bench jar comes from sdmq-bench/target (./mvnw -q -DskipTests package); logs go to sdmq-bench/target/warm/.
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=${1:-sdmq-server/target/sdmq-server-0.1.0-SNAPSHOT.jar}
MESSAGES=${2:-1000000}
DB=sdmq_warm
PREFIX=sdmqwarm-$(date +%s)
PORT=18097
OUT=sdmq-bench/target/warm
mkdir -p "$OUT"
mariadb -uroot -h127.0.0.1 -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"

start() {
    java -XX:+UseParallelGC -jar "$JAR" --server.port=$PORT --spring.data.redis.url=redis://127.0.0.1:6379 \
        --spring.datasource.url=jdbc:mysql://127.0.0.1:3306/$DB --spring.datasource.username=root \
        --spring.datasource.password= --sdmq.key-prefix="$PREFIX" --sdmq.recovery.auto-restore=false "$@" \
        >>"$OUT/server.log" 2>&1 &
    PID=$!
    until curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null; do sleep 0.2; done
}
stop() {
    kill "$PID"
    wait "$PID" || true
}
cold_ids() {
    local total=0 key
    for key in $(redis-cli --scan --pattern "$PREFIX:{b*}:cold"); do
        total=$((total + $(redis-cli zcard "$key")))
    done
    echo "$total"
}

start
java -XX:TieredStopAtLevel=1 -jar sdmq-bench/target/sdmq-bench-0.1.0-SNAPSHOT.jar --url "http://127.0.0.1:$PORT" \
    --redis redis://127.0.0.1:6379 --prefix "$PREFIX" --workload W5 --messages 1000 --preload "$MESSAGES" \
    --out "$OUT/results.jsonl" >>"$OUT/bench.log" 2>&1
stop
echo "cold ids before the restart: $(cold_ids)"
launched=$(date +%s%N)
start --sdmq.scheduler.cold-after=0
healthy=$(date +%s%N)
while [ "$(cold_ids)" != 0 ]; do sleep 0.1; done
warmed=$(date +%s%N)
echo "server up $(( (healthy - launched) / 1000000 )) ms after launch; no cold id left" \
    "$(( (warmed - healthy) / 1000000 )) ms after that"
stop
redis-cli --scan --pattern "$PREFIX:*" | xargs -r -n 1000 redis-cli del >/dev/null
mariadb -uroot -h127.0.0.1 -e "DROP DATABASE $DB"
