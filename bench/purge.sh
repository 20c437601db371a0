#!/usr/bin/env bash
# The retention purge's SQL, before and after the change of 2026-11-25 (BENCHMARKS.md), on a scratch database
# sdmq_purge in the local MariaDB: 200 000 FINISHED messages and 1 000 000 log rows. Rounds alternate the two
# shapes; each purges 30 batches of 500 messages (find, delete the log rows, delete the rows, commit) through the
# mysql client and prints its wall time and the CPU ticks of mariadbd. Drops the database at the end.
#
#   bench/purge.sh [ROUNDS]     (default 4)
set -euo pipefail
cd "$(dirname "$0")/.."
DB=sdmq_purge
TERMINAL="('FINISHED', 'DELETED', 'DEAD', 'EXPIRED')"

mysql -uroot -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
trap 'mysql -uroot -e "DROP DATABASE IF EXISTS $DB"' EXIT
mysql -uroot "$DB" <sql/V1__create_message_tables.sql
mysql -uroot "$DB" -e "
INSERT INTO sdmq_message SELECT seq, 'order', CONCAT('k', seq), REPEAT('x', 200), 0, 1000, 30000, 5, NULL,
    '2026-01-01', '2026-01-01', 'FINISHED', 1, '2026-01-02' FROM seq_1_to_200000;
INSERT INTO sdmq_message_log (message_id, from_status, to_status, changed_at, bucket, host, thread, note)
    SELECT m.seq, 'READY', 'RESERVED', '2026-01-01', 'bucket', 'host', 'thread', NULL FROM seq_1_to_200000 m, seq_1_to_5 r;"

# ids in a list: from $1, count $2, joined by commas
ids() { seq -s, "$1" $(($1 + $2 - 1)); }
# one statement per chunk of $3 ids from $1 ($2 ids in all): $4 IN (chunk) $5
chunked() {
    local from=$1 left=$2 size=$3
    while [ "$left" -gt 0 ]; do
        local n=$((left < size ? left : size))
        printf '%s (%s)%s;\n' "$4" "$(ids "$from" "$n")" "$5"
        from=$((from + n)) left=$((left - n))
    done
}
batch() { # shape, first id
    if [ "$1" = old ]; then
        echo "SELECT COUNT(*) INTO @n FROM (SELECT id FROM sdmq_message WHERE status IN $TERMINAL AND update_time < '2026-02-01' AND id >= $2 ORDER BY update_time LIMIT 500) x;"
        chunked "$2" 500 500 "DELETE FROM sdmq_message_log WHERE message_id IN" ""
        chunked "$2" 500 500 "DELETE FROM sdmq_message WHERE status IN $TERMINAL AND id IN" ""
    else
        echo "SELECT COUNT(*) INTO @n FROM (SELECT id FROM sdmq_message WHERE status IN $TERMINAL AND due_time < '2026-02-01' AND update_time < '2026-02-01' AND id >= $2 LIMIT 500) x;"
        chunked "$2" 500 20 "DELETE m FROM sdmq_message m FORCE INDEX (PRIMARY) WHERE m.id IN" " AND m.status IN $TERMINAL"
        chunked "$2" 500 20 "DELETE FROM sdmq_message_log WHERE message_id IN" ""
    fi
    echo "COMMIT;"
}
PID=$(pgrep -x mariadbd)
ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
next=1
for round in $(seq "${1:-4}"); do
    for shape in old new; do
        sql=$(echo "SET autocommit = 0;"; for b in $(seq 0 29); do batch "$shape" $((next + b * 500)); done)
        t0=$(ticks) s=$(date +%s%N)
        mysql -uroot "$DB" <<<"$sql"
        echo "$shape round $round: wall $((($(date +%s%N) - s) / 1000000)) ms, mariadb CPU $(($(ticks) - t0)) ticks"
        next=$((next + 15000))
    done
done
mysql -uroot "$DB" -e "SELECT COUNT(*) AS messages_left FROM sdmq_message"
