# Sourced by bench/run.sh, bench/ab.sh and bench/peers.sh: a server jar on the local Redis and MariaDB with a fresh
# database and key prefix, the bench JVM, the server's JIT warm-up, the clean-up, and the results' Markdown. The caller
# sets PORT, DB, PREFIX, OUT, SERVER_JAR and JAVA_OPTS (a list of JVM options) before calling start_server, and may set
# SERVER_EXTRA_ARGS (a list of server arguments).
REDIS_URL=redis://127.0.0.1:6379
BENCH_JAR=${BENCH_JAR:-sdmq-bench/target/sdmq-bench-0.1.0-SNAPSHOT.jar}
SERVER_PID=
STARTED_PIDS=()

# starts the server on a fresh database $DB and waits for its health; its log goes to $OUT/server.log. BENCH_TARGET
# then holds the bench's arguments that point it at this server, its key prefix, process and database
start_server() {
    if port_taken "$PORT"; then
        # another side runs there: leave its database alone
        echo "port $PORT is taken" >&2
        trap - EXIT
        exit 1
    fi
    mariadb -h 127.0.0.1 -P 3306 -uroot -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
    launch_server "$PORT" "$OUT/server.log"
    SERVER_PID=$LAUNCHED_PID
    BENCH_TARGET=(--url "http://127.0.0.1:$PORT" --redis "$REDIS_URL" --prefix "$PREFIX" --server-pid "$SERVER_PID"
        --server-db "jdbc:mysql://127.0.0.1:3306/$DB")
}

# one side of an alternating comparison (ab.sh, wrk-push.sh): the jar $1 labelled $2, on port $3 with a fresh
# database $4 and key prefix, raw files in sdmq-bench/target/$5/<label>-<time>/, all cleaned up on exit. The caller
# sets JAVA_OPTS, and may set SERVER_EXTRA_ARGS, first
start_side() {
    SERVER_JAR=$(realpath "$1")
    LABEL=$2
    PORT=$3
    DB=$4
    PREFIX=sdmq$5-$(date +%s%N)
    OUT=sdmq-bench/target/$5/$LABEL-$(date +%H%M%S)
    mkdir -p "$OUT"
    trap cleanup EXIT
    start_server
}

# CPU ticks (user + system) of the given server processes together, then of mariadbd, then of redis-server: the
# "before" or "after" of a measured workload
cpu_ticks() {
    local server=0 pid
    for pid in "$@"; do
        server=$((server + $(process_ticks "$pid")))
    done
    echo "$server $(process_ticks "$(pgrep -x mariadbd | head -1)") $(process_ticks "$(pgrep -x redis-server | head -1)")"
}

process_ticks() {
    stat_ticks "/proc/$1/stat"
}

# user + system ticks of a /proc stat file, its fields read after the name's closing parenthesis (a thread's name may
# hold spaces)
stat_ticks() {
    sed 's/.*) //' "$1" | awk '{ print $12 + $13 }'
}

# another instance on the same database and key prefix, on port $1, logging to $2; its pid in LAUNCHED_PID
launch_server() {
    if port_taken "$1"; then
        echo "port $1 is taken" >&2
        exit 1
    fi
    SERVER_ARGS=(--server.port="$1" --spring.data.redis.url="$REDIS_URL"
        --spring.datasource.url="jdbc:mysql://127.0.0.1:3306/$DB" --spring.datasource.username=root
        --spring.datasource.password= --sdmq.key-prefix="$PREFIX" --sdmq.recovery.auto-restore=false
        ${SERVER_EXTRA_ARGS[@]+"${SERVER_EXTRA_ARGS[@]}"})
    # shellcheck disable=SC2086 # JAVA_OPTS is a list of options
    java $JAVA_OPTS -jar "$SERVER_JAR" "${SERVER_ARGS[@]}" >"$2" 2>&1 &
    LAUNCHED_PID=$!
    STARTED_PIDS+=("$LAUNCHED_PID")
    for _ in $(seq 120); do
        if curl -sf "http://127.0.0.1:$1/actuator/health" >/dev/null; then
            return 0
        fi
        if ! kill -0 "$LAUNCHED_PID" 2>/dev/null; then
            break
        fi
        sleep 1
    done
    echo "the server did not come up; see $2" >&2
    exit 1
}

port_taken() {
    curl -s -o /dev/null "http://127.0.0.1:$1/"
}

# stops every instance started
stop_server() {
    for pid in ${STARTED_PIDS[@]+"${STARTED_PIDS[@]}"}; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid"
            wait "$pid" 2>/dev/null || true
        fi
    done
    STARTED_PIDS=()
    SERVER_PID=
}

# the EXIT trap of both scripts: the server, the prefix's Redis keys and the database go
cleanup() {
    stop_server
    redis-cli -h 127.0.0.1 -p 6379 --scan --pattern "$PREFIX:*" \
        | xargs -r -n 500 redis-cli -h 127.0.0.1 -p 6379 DEL >/dev/null || true
    mariadb -h 127.0.0.1 -P 3306 -uroot -e "DROP DATABASE IF EXISTS $DB" || true
}

# the bench JVM with its arguments. C1 only: the load generator's JVM lives for one workload, and C2 would spend much
# of it compiling, on cores the server needs
BENCH_JVM=(timeout 900 java -Xmx4g -XX:TieredStopAtLevel=1 ${BENCH_JAVA_OPTS:-} -jar "$BENCH_JAR")
bench_jvm() {
    "${BENCH_JVM[@]}" "$@"
}

# warms the server's JIT up with the given bench function; its figures go to $OUT/warmup.jsonl and are not reported,
# the CPU of each round in W1's shape to $OUT/warmup.log
warm_up() {
    "$1" --workload W1 --label warmup --messages 20000 --producers 16 --drain 10 --out "$OUT/warmup.jsonl"
    "$1" --workload W2 --label warmup-batch --messages 20000 --drain 10 --out "$OUT/warmup.jsonl"
    # then in W1's own shape (4 producers leave consumers parked between messages, a path 16 producers seldom take),
    # again until the JIT has settled: until C2 took under a tenth of the server's CPU over a round, at most
    # WARMUP_ROUNDS (6). On a slow 2-core host one round left C2 compiling through the measured workload (a seventh of
    # the server's CPU there) and hot code in tier 3: W1 of 10 000 through the client took 27, 13, 10 and 9.4
    # CPU-seconds of the server in four rounds in a row from its start, over raw HTTP 80, 35, 19 and 14
    local round server c2
    for round in $(seq "${WARMUP_ROUNDS:-6}"); do
        server=$(process_ticks "$SERVER_PID")
        c2=$(c2_ticks "$SERVER_PID")
        "$1" --workload W1 --label "warmup-4p-$round" --messages 10000 --producers 4 --drain 10 \
            --out "$OUT/warmup.jsonl"
        server=$(($(process_ticks "$SERVER_PID") - server))
        c2=$(($(c2_ticks "$SERVER_PID") - c2))
        echo "warm-up round $round in W1's shape: CPU ticks server $server, C2 $c2" >>"$OUT/warmup.log"
        if [ $((c2 * 10)) -lt "$server" ]; then
            break
        fi
    done
}

# CPU ticks (user + system) of the C2 compiler threads of process $1 alive now; a thread that ends meanwhile counts 0
c2_ticks() {
    local task ticks=0 own
    for task in /proc/"$1"/task/*; do
        if [[ $(cat "$task/comm" 2>/dev/null) == "C2 CompilerThre"* ]]; then
            own=$(stat_ticks "$task/stat" 2>/dev/null) || own=0
            ticks=$((ticks + ${own:-0}))
        fi
    done
    echo "$ticks"
}

# the commands logged in $OUT/commands.txt, the Markdown the bench jar prints for $RESULTS in the mode $1 (--report
# or --compare), and the JSON lines: the body of a run's record in BENCHMARKS.md
results_markdown() {
    echo '```sh'
    cat "$OUT/commands.txt"
    echo '```'
    echo
    java -jar "$BENCH_JAR" "$1" "$RESULTS"
    echo
    echo "JSON lines:"
    echo
    echo '```json'
    cat "$RESULTS"
    echo '```'
}
