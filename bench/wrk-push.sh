#!/usr/bin/env bash
# Single pushes alone, from wrk (a load generator in C, whose own CPU is a fraction of the bench JVM's), against the
# given server jar on the local Redis and MariaDB: the push path's throughput, latency and CPU per push, without
# consumers. Like bench/ab.sh, run two jars in turn, several times each (A B A B ...).
#
#   bench/wrk-push.sh SERVER_JAR LABEL
#
#   WRK_CONNECTIONS  concurrent connections, each one push at a time (default 4, as W1's producers)
#   WRK_SECONDS      length of the measured run (default 20), after 25 s of warm-up
#
# Needs wrk (Debian: apt-get install wrk). Messages are due in an hour, to a topic nobody consumes. All traffic
# stays on 127.0.0.1 (port 18092); raw files go to sdmq-bench/target/wrk/<label>-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=bench/common.sh
. bench/common.sh

JAVA_OPTS="-XX:+UseParallelGC"
CONNECTIONS=${WRK_CONNECTIONS:-4}
start_side "$1" "$2" 18092 sdmq_wrk wrk

cat >"$OUT/push.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local pad = string.rep("x", 180)
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, "/push", nil, '{"topic":"wrk-push","delay":3600000,"body":"' .. n .. '|' .. pad .. '"}')
end
EOF
URL="http://127.0.0.1:$PORT"
wrk -t1 -c16 -d15s -s "$OUT/push.lua" "$URL" >"$OUT/warmup.txt"
wrk -t1 -c"$CONNECTIONS" -d10s -s "$OUT/push.lua" "$URL" >>"$OUT/warmup.txt"

before=$(cpu_ticks "$SERVER_PID")
wrk -t1 -c"$CONNECTIONS" -d"${WRK_SECONDS:-20}s" --latency -s "$OUT/push.lua" "$URL" >"$OUT/wrk.txt"
after=$(cpu_ticks "$SERVER_PID")
requests=$(awk '/requests in/ { print $1 }' "$OUT/wrk.txt")
if grep -q 'Non-2xx' "$OUT/wrk.txt"; then
    echo "some pushes were refused; see $OUT/wrk.txt" >&2
    exit 1
fi
echo "$before $after" | awk -v label="$LABEL c=$CONNECTIONS" -v hz="$(getconf CLK_TCK)" -v n="$requests" \
    -v rate="$(awk '/Requests\/sec/ { print $2 }' "$OUT/wrk.txt")" \
    -v p50="$(awk '$1 == "50%" { print $2 }' "$OUT/wrk.txt")" -v p99="$(awk '$1 == "99%" { print $2 }' "$OUT/wrk.txt")" \
    '{ printf "%s: %s pushes/s, p50 %s, p99 %s; CPU ms per push: server %.3f, mariadb %.3f, redis %.3f\n",
       label, rate, p50, p99, ($4-$1)*1000/hz/n, ($5-$2)*1000/hz/n, ($6-$3)*1000/hz/n }'
echo "raw files in $OUT"
