#!/usr/bin/env bash
# Load benchmark of `arbiter serve` (127.0.0.1 only, bounded in time).
#
#   scripts/bench-serve.sh [DURATION_SECONDS]
#
# 1. The public pairings page of a 1,000-player round (500 boards) at 1,000 concurrent
#    connections (wrk, 1 thread: fewer than the 2 cores) while the round's results are
#    entered one by one through
#    the arbiter's API by another process (20 a second), so the page's cache is invalidated
#    and re-rendered all through the run.
# 2. The same page's latency as the event grows (100 → 1,000 → 10,000 players), 50
#    connections, no writes; round 1's pairings (SIZES="100 1000" to leave one out).
# With `perf` installed every run also prints the server's CPU time per 1,000 responses.
# Needs wrk (apt-get install -y wrk). Figures go to BENCHMARKS.md by hand.
set -euo pipefail
D=${1:-15}
cd "$(dirname "$0")/.."
# Two builds: `--example` limits a build to the examples (the `arbiter` binary would stay stale).
cargo build --release -p arbiter-cli >/dev/null
cargo build --release -p arbiter-web --example serve_bench >/dev/null
B=target/release/arbiter
H=target/release/examples/serve_bench
T=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$T"; }
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || true
PORT=18480

serve() { # DB → starts the server on PORT, waits until it answers
  "$B" serve --db "$1" --addr 127.0.0.1:$PORT 2>"$T/serve.log" &
  PIDS+=($!)
  SERVER_PID=$!
  for _ in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$PORT/ && return 0; sleep 0.1; done
  echo "server did not start"; cat "$T/serve.log"; exit 1
}
# wrk ARGS… against the server (last PID started by `serve`), printing wrk's report and, when
# `perf` is installed, the CPU time the server (and the writer, if one runs) spent per 1,000
# responses — a figure that a busy machine disturbs far less than requests/s.
measure() {
  local srv=${SERVER_PID} out="$T/wrk.txt" n cpu
  if command -v perf >/dev/null; then
    perf stat -x, -e task-clock -p "$srv" -o "$T/cpu.srv" 2>/dev/null &
    local ps=$!
    if [ -n "${WRITER:-}" ]; then perf stat -x, -e task-clock -p "$WRITER" -o "$T/cpu.wr" 2>/dev/null & local pw=$!; fi
  fi
  wrk "$@" >"$out"
  if [ -n "${ps:-}" ]; then
    kill -INT "$ps" 2>/dev/null; wait "$ps" 2>/dev/null || true
    if [ -n "${pw:-}" ]; then kill -INT "$pw" 2>/dev/null; wait "$pw" 2>/dev/null || true; fi
  fi
  ${FILTER:-cat} "$out"
  n=$(awk '/requests in/ {print $1}' "$out")
  if [ -s "$T/cpu.srv" ] && [ "${n:-0}" -gt 0 ]; then
    cpu=$(awk -F, '/task-clock/ {print $1}' "$T/cpu.srv")
    echo "server CPU: $(echo "scale=1; $cpu / 1" | bc) ms for $n responses = $(echo "scale=2; $cpu * 1000 / $n" | bc) CPU-ms per 1,000"
    if [ -n "${pw:-}" ] && [ -s "$T/cpu.wr" ]; then
      echo "writer CPU: $(awk -F, '/task-clock/ {printf "%.1f", $1}' "$T/cpu.wr") ms"
    fi
  fi
  rm -f "$T/cpu.srv" "$T/cpu.wr"
}
stop() { kill "${PIDS[-1]}" 2>/dev/null || true; wait "${PIDS[-1]}" 2>/dev/null || true; unset 'PIDS[-1]'; PORT=$((PORT + 1)); }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%FT%TZ)"

echo "== 1,000 players, 1,000 connections, results entered meanwhile (${D} s)"
read -r EV SEC R BOARDS < <("$H" fixture "$T/k1000.db" 1000)
URL="http://127.0.0.1:$PORT/e/$EV/s/$SEC/r/$R"
serve "$T/k1000.db"
echo "page: $URL ($BOARDS boards, $(curl -s "$URL" | wc -c) bytes, $(curl -s -H 'Accept-Encoding: gzip' "$URL" | wc -c) gzip)"
"$H" enter "$T/k1000.db" "$EV" "$SEC" "$R" 20 2>"$T/enter.log" &
PIDS+=($!)
WRITER=${PIDS[-1]}
measure -t1 -c1000 -d"${D}s" --timeout 5s --latency "$URL"
echo "-- same, with Accept-Encoding: gzip (as phones send)"
measure -t1 -c1000 -d"${D}s" --timeout 5s --latency -H 'Accept-Encoding: gzip' "$URL"
kill "$WRITER" 2>/dev/null || true
wait "$WRITER" 2>/dev/null || true
unset 'PIDS[-1]'
WRITER=
echo "results entered during the runs: $(curl -s "http://127.0.0.1:$PORT/api/events/$EV/sections/$SEC/rounds/$R" | grep -c '"result": "')"
stop

for N in ${SIZES:-100 1000 10000}; do
  echo "== $N players: latency at 50 connections (${D} s each), no writes"
  S=$(date +%s.%N)
  # Round 1 (paired by the slide): pairing a round 2 of 10,000 players by score groups
  # takes the engine many minutes; the page itself is the same table.
  read -r EV SEC R BOARDS < <("$H" fixture "$T/n$N.db" "$N" 0)
  echo "fixture: $(echo "$(date +%s.%N) - $S" | bc) s"
  serve "$T/n$N.db"
  URL="http://127.0.0.1:$PORT/e/$EV/s/$SEC/r/$R"
  echo "first render (cold cache): $(curl -s -o /dev/null -w '%{time_total}' "$URL") s; $BOARDS boards, $(curl -s "$URL" | wc -c) bytes"
  echo "-- plain"
  FILTER='grep -E Requests/sec|50%|99%' measure -t1 -c50 -d"${D}s" --latency "$URL"
  echo "-- gzip"
  FILTER='grep -E Requests/sec|50%|99%' measure -t1 -c50 -d"${D}s" --latency -H 'Accept-Encoding: gzip' "$URL"
  stop
done
