# Starting the tests' PostgreSQL and Redis when they are installed here but down.
# Sourced by .ci/run once .venv exists (the checks use its Python clients, so services
# in Docker count as answering too); each function says what to do when it cannot start one.

postgres_answers() {
    local port="${1:-5432}"
    .venv/bin/python -c "import psycopg; psycopg.connect('postgresql://postgres@127.0.0.1:$port/postgres', connect_timeout=2).close()" 2>/dev/null
}

redis_answers() {
    .venv/bin/python -c "import redis; redis.Redis(port=6379, socket_connect_timeout=2).ping()" 2>/dev/null
}

say_compose() {
    cat >&2 <<'HINT'
Start it yourself on 127.0.0.1 (PostgreSQL: user postgres, trust auth; Redis: port 6379),
or with Docker:  docker compose up -d   (compose.yaml), then run .ci/run again.
HINT
}

# PostgreSQL: Debian's pg_ctlcluster when there is one, otherwise pg_ctl on the data (or
# configuration) directory found in $PGDATA or the usual places, run as its owner.
start_postgres() {
    local port="${1:-5432}"
    echo "starting PostgreSQL"
    if command -v pg_ctlcluster >/dev/null 2>&1 && [ -n "$(ls /etc/postgresql 2>/dev/null)" ]; then
        pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start
    else
        local pg_ctl data="" candidate owner log
        pg_ctl="$(command -v pg_ctl || true)"
        if [ -z "$pg_ctl" ]; then
            pg_ctl="$(ls /usr/lib/postgresql/*/bin/pg_ctl /usr/pgsql-*/bin/pg_ctl 2>/dev/null | sort -V | tail -1 || true)"
        fi
        for candidate in "${PGDATA:-}" /etc/postgresql/*/main /var/lib/postgresql/data \
            /var/lib/pgsql/data /var/lib/pgsql/*/data /usr/local/pgsql/data \
            /usr/local/var/postgres* /opt/homebrew/var/postgresql*; do
            if [ -n "$candidate" ] && { [ -f "$candidate/PG_VERSION" ] || [ -f "$candidate/postgresql.conf" ]; }; then
                data="$candidate"
                break
            fi
        done
        if [ -z "$pg_ctl" ] || [ -z "$data" ]; then
            echo "PostgreSQL is not answering on 127.0.0.1:$port, and there is no pg_ctlcluster," >&2
            echo "nor pg_ctl with a data directory (set PGDATA to yours) to start it." >&2
            say_compose
            exit 1
        fi
        owner="$(stat -c %U "$data" 2>/dev/null || stat -f %Su "$data")"
        log="${TMPDIR:-/tmp}/travel-bot-postgres.log"
        echo "pg_ctl -D $data (as $owner), log in $log"
        if [ "$(id -u)" = 0 ] && [ "$owner" != root ]; then
            # PostgreSQL refuses to run as root: start it as the directory's owner.
            su -s /bin/sh "$owner" -c "\"$pg_ctl\" -D \"$data\" -l \"$log\" -w start"
        else
            "$pg_ctl" -D "$data" -l "$log" -w start
        fi
    fi
    for _ in $(seq 30); do postgres_answers "$port" && return 0; sleep 1; done
    echo "PostgreSQL was started but does not answer on 127.0.0.1:$port." >&2
    say_compose
    exit 1
}

start_redis() {
    echo "starting Redis"
    if ! command -v redis-server >/dev/null 2>&1; then
        echo "Redis is not answering on 127.0.0.1:6379, and redis-server is not installed." >&2
        say_compose
        exit 1
    fi
    local dir="${TMPDIR:-/tmp}/travel-bot-redis"
    mkdir -p "$dir"
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
        --appendonly no --dir "$dir" --logfile "$dir/redis.log"
    for _ in $(seq 30); do redis_answers && return 0; sleep 1; done
    echo "Redis was started but does not answer on 127.0.0.1:6379 (log: $dir/redis.log)." >&2
    exit 1
}
