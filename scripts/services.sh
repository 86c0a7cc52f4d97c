#!/usr/bin/env bash
# Start PostgreSQL and Redis on loopback for the test suite, unless they are already up.
# Installs nothing: `scripts/debian-packages.sh services` does that first (one apt-get).
# Usage: scripts/services.sh PG_PORT REDIS_PORT
set -euo pipefail

PG_PORT=${1:-54329}
REDIS_PORT=${2:-63799}
STATE=/tmp/clubscore-services
mkdir -p "$STATE"
chmod 1777 "$STATE" 2>/dev/null || true

missing() {
  echo "services: $1 is not installed; run: bash scripts/debian-packages.sh services" >&2
  exit 1
}

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# -- PostgreSQL: a cluster of our own, trust authentication on 127.0.0.1 only -------------
PGBIN=$(pg_bin)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  missing postgresql
fi
if "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
  echo "services: PostgreSQL already running on 127.0.0.1:$PG_PORT"
else
  DATA="$STATE/pg-$PG_PORT"
  if [ "$(id -u)" = 0 ]; then
    as_pg=(runuser -u postgres --)
    install -d -m 700 -o postgres -g postgres "$DATA"
  else
    as_pg=()
    install -d -m 700 "$DATA"
  fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    "${as_pg[@]}" "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $DATA -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null
  echo "services: PostgreSQL started on 127.0.0.1:$PG_PORT (data in $DATA)"
fi

# -- Redis ----------------------------------------------------------------------------------
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
  missing redis-server
fi
if [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; then
  echo "services: Redis already running on 127.0.0.1:$REDIS_PORT"
else
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
    --dir "$STATE" --logfile "$STATE/redis-$REDIS_PORT.log" --pidfile "$STATE/redis-$REDIS_PORT.pid"
  for _ in $(seq 50); do
    [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ] && break
    sleep 0.1
  done
  echo "services: Redis started on 127.0.0.1:$REDIS_PORT"
fi
