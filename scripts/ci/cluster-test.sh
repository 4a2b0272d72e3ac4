#!/usr/bin/env bash
# Three Staunton replicas behind one nginx running deploy/nginx/staunton.conf, all on
# loopback ports picked here, and the proofs that this is a working way to scale out:
#   1. a second request for a URL is served by nginx (X-Cache-Status: HIT, no replica renders);
#   2. 20 concurrent first requests for one new URL make exactly one render in all;
#   3. a replica killed (SIGKILL) under a bounded load of distinct URLs: no client sees an
#      error, and the other two take the load;
#   4. the replica restarted rejoins and takes load again;
#   5. errors are not cached, and one client address past its burst gets 429;
# then, not a pass/fail check: cache hits per second beside a static file of the same size
# from the same nginx (the README's target is at least 80 %).
# Every process started here is stopped at the end, whatever happened.
#
# Needs nginx, wrk and curl; installs Debian's nginx and wrk when missing (as root).
# Usage: scripts/ci/cluster-test.sh [LOAD_SECONDS]   (default 6)
set -euo pipefail
cd "$(dirname "$0")/../.."
load_seconds=${1:-6}

say() { printf '%s\n' "$*"; }
fail() { printf 'cluster-test: FAIL: %s\n' "$*" >&2; exit 1; }

missing=()
command -v nginx > /dev/null || missing+=(nginx)
command -v wrk > /dev/null || missing+=(wrk)
command -v curl > /dev/null || missing+=(curl)
if ((${#missing[@]})); then
  [[ $(id -u) == 0 ]] || fail "install ${missing[*]} first (or run as root)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi
# Debian starts its own nginx on port 80 when it installs it; this test runs its own.
if [[ ${#missing[@]} -gt 0 ]] && command -v systemctl > /dev/null; then
  systemctl stop nginx 2> /dev/null || true
fi

cargo build --release --quiet --bin staunton
bin=$(scripts/target-dir.sh)/release/staunton

work=$(mktemp -d /tmp/staunton-cluster.XXXXXX)
declare -a replica_pid=()
cleanup() {
  local pid
  exec 2> /dev/null # not the shell's "Killed" notices
  for pid in "${replica_pid[@]}"; do kill -9 "$pid" 2> /dev/null || true; done
  if [[ -s $work/nginx.pid ]]; then kill -QUIT "$(cat "$work/nginx.pid")" 2> /dev/null || true; fi
  sleep 0.2
  pkill -9 -f "nginx: .*$work" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Four free loopback ports: three replicas and nginx (and one for the static baseline).
read -r -a ports < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(5)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks: s.close()')
replica_port=("${ports[@]:0:3}")
front=${ports[3]}
static_port=${ports[4]}

start_replica() { # index
  local i=$1
  RUST_LOG=warn "$bin" serve --addr "127.0.0.1:${replica_port[$i]}" \
    >> "$work/replica-$i.log" 2>&1 &
  replica_pid[i]=$!
  for _ in $(seq 100); do
    curl -fs "http://127.0.0.1:${replica_port[$i]}/health" -o /dev/null && return 0
    sleep 0.05
  done
  fail "replica $i did not answer /health on port ${replica_port[$i]}"
}
for i in 0 1 2; do start_replica "$i"; done

# The configuration under test, with only the replica lines, the port and the paths changed.
conf=$work/staunton.conf
awk -v ports="${replica_port[*]}" '
  /# replicas:begin/ { print; n = split(ports, p, " ");
                       for (i = 1; i <= n; i++)
                         printf "    server 127.0.0.1:%s max_fails=1 fail_timeout=3s;\n", p[i];
                       skip = 1; next }
  /# replicas:end/   { skip = 0 }
  !skip' deploy/nginx/staunton.conf |
  sed -e "s|listen 80;|listen 127.0.0.1:$front;|" \
      -e "s|/var/cache/nginx/staunton|$work/cache|" \
      -e "s|/var/log/nginx/staunton.log|$work/access.log|" > "$conf"
grep -q "listen 127.0.0.1:$front;" "$conf" || fail "could not set the listen port in $conf"
grep -q "$work/cache" "$conf" || fail "could not set the cache folder in $conf"
[[ $(grep -c "server 127.0.0.1:" "$conf") == 3 ]] || fail "could not list the replicas in $conf"

mkdir -p "$work/cache" "$work/tmp" "$work/static"
user_line=''
if [[ $(id -u) == 0 ]]; then
  user_line='user nobody nogroup;'
  chmod 755 "$work"
  chown -R nobody:nogroup "$work/cache" "$work/tmp"
fi
cat > "$work/nginx.conf" << CONF
$user_line
worker_processes auto;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 1024; }
http {
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  include $conf;
  # The baseline: a static file of the same bytes, from the same nginx.
  server {
    listen 127.0.0.1:$static_port;
    access_log off;
    root $work/static;
  }
}
CONF
nginx -t -q -p "$work" -c "$work/nginx.conf" || fail "nginx rejects the configuration"
nginx -p "$work" -c "$work/nginx.conf"
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$front/health" -o /dev/null && break
  sleep 0.05
done

# The renders a replica has made (every route and format), from its own /metrics.
renders() { # index
  curl -fs "http://127.0.0.1:${replica_port[$1]}/metrics" |
    awk '/^staunton_renders_total[{ ]/ { n += $NF } END { print n + 0 }'
}
total_renders() { echo $(($(renders 0) + $(renders 1) + $(renders 2))); }
cache_status() { # url -> "status x-cache-status"
  curl -s -o /dev/null -D - "http://127.0.0.1:$front$1" |
    awk 'NR == 1 { s = $2 } tolower($1) == "x-cache-status:" { c = $2 } END { print s, c }' |
    tr -d '\r'
}
run_id=$$-$RANDOM

say "cluster: replicas on ${replica_port[*]}, nginx on $front ($(nproc) cores)"

# 1. A second request is a cache hit: nginx answers, no replica renders.
url="/diagram?fen=8/8/8/4k3/8/8/8/4K3_w_-_-_${run_id%%-*}_1&size=320"
before=$(total_renders)
first=$(cache_status "$url")
after_first=$(total_renders)
second=$(cache_status "$url")
after_second=$(total_renders)
say "1. first request: $first, renders +$((after_first - before)); second: $second, renders +$((after_second - after_first))"
[[ $first == "200 MISS" ]] || fail "the first request should be a 200 MISS, was $first"
[[ $((after_first - before)) == 1 ]] || fail "the first request should render once"
[[ $second == "200 HIT" ]] || fail "the second request should be a 200 HIT, was $second"
[[ $after_second == "$after_first" ]] || fail "a cache hit reached a replica"

# 2. Twenty concurrent first requests for one URL: one render in all.
url="/diagram?fen=r3k2r/8/8/8/8/8/8/R3K2R_w_KQkq_-_${run_id%%-*}_1&size=360"
before=$(total_renders)
declare -a curls=()
for _ in $(seq 20); do
  curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$front$url" >> "$work/concurrent" &
  curls+=($!)
done
wait "${curls[@]}"
oks=$(grep -c '^200$' "$work/concurrent" || true)
made=$(($(total_renders) - before))
say "2. 20 concurrent first requests: $oks answered 200, renders across the replicas +$made"
[[ $oks == 20 ]] || fail "all 20 concurrent requests should be 200, got: $(sort "$work/concurrent" | uniq -c | tr '\n' ' ')"
[[ $made == 1 ]] || fail "20 concurrent misses of one URL should render once, rendered $made times"

# 3. A replica killed under load: no client error, the others take the load.
lua=$work/distinct.lua
cat > "$lua" << LUA
-- Every request a new position (a miss for nginx and for every replica): each thread counts
-- in its own range of half-move clocks, each phase has its own move number.
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/diagram?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_" .. (id * 100000000 + n) .. "_" .. os.getenv("PHASE") .. "&size=" .. (200 + (n % 8)))
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("wrk: requests %d errors connect %d read %d write %d timeout %d non200 %d (%.0f req/s)\n",
    summary.requests, e.connect, e.read, e.write, e.timeout, e.status,
    summary.requests / (summary.duration / 1e6)))
end
LUA
wrk_load() { # phase (a move number) seconds -> the wrk summary line
  PHASE=$1 wrk -t2 -c8 -d"${2}s" --timeout 5s -s "$lua" "http://127.0.0.1:$front" |
    grep '^wrk:'
}
declare -a before_kill=()
for i in 0 1 2; do before_kill[i]=$(renders "$i"); done
wrk_load 1 "$load_seconds" > "$work/kill.out" &
load_pid=$!
sleep "$(awk -v s="$load_seconds" 'BEGIN { print s / 3 }')"
kill -9 "${replica_pid[0]}"
wait "${replica_pid[0]}" 2> /dev/null || true
wait "$load_pid"
summary=$(cat "$work/kill.out")
say "3. replica 0 killed (SIGKILL) $((load_seconds / 3)) s into ${load_seconds} s of distinct URLs: $summary"
read -r requests connect read_e write_e timeout non200 < <(
  awk '{ print $3, $6, $8, $10, $12, $14 }' <<< "$summary")
[[ $requests -gt 0 ]] || fail "the load sent no requests"
errors=$((connect + read_e + write_e + timeout + non200))
[[ $errors == 0 ]] || fail "clients saw $errors failed requests while a replica died"
r1=$(($(renders 1) - before_kill[1]))
r2=$(($(renders 2) - before_kill[2]))
say "   renders during the load: replica 1 +$r1, replica 2 +$r2 (replica 0 is gone; nginx answered $requests)"
[[ $r1 -gt 0 && $r2 -gt 0 ]] || fail "the load should spread over the two live replicas"
min=$((r1 < r2 ? r1 : r2))
[[ $((min * 4)) -ge $((r1 + r2)) ]] || fail "the load is lopsided: +$r1 and +$r2"

# 4. The replica restarted rejoins.
start_replica 0
sleep 3.5 # nginx tries a failed replica again after fail_timeout (3 s)
for i in 0 1 2; do before_kill[i]=$(renders "$i"); done
summary=$(wrk_load 2 3)
r0=$(renders 0)
r1=$(($(renders 1) - before_kill[1]))
r2=$(($(renders 2) - before_kill[2]))
say "4. replica 0 restarted: $summary; renders replica 0 +$r0, 1 +$r1, 2 +$r2"
read -r _ connect read_e write_e timeout non200 < <(awk '{ print $3, $6, $8, $10, $12, $14 }' <<< "$summary")
[[ $((connect + read_e + write_e + timeout + non200)) == 0 ]] || fail "clients saw errors after the restart"
[[ $((r0 * 6)) -ge $((r0 + r1 + r2)) ]] || fail "the restarted replica took too little of the load: +$r0 of $((r0 + r1 + r2))"

# 5. Errors are not cached; a client past its burst is turned away with 429.
bad="/diagram?fen=not-a-position-$run_id"
first=$(cache_status "$bad")
second=$(cache_status "$bad")
say "5. a bad FEN twice: $first, then $second (no-store: never a HIT)"
[[ $first == "400 MISS" && $second == "400 MISS" ]] || fail "a 400 should pass through uncached"
url="/diagram?fen=start&size=100"
curl -fs -o /dev/null "http://127.0.0.1:$front$url"
args=()
for _ in $(seq 300); do args+=(-o /dev/null "http://127.0.0.1:$front$url"); done
codes=$(curl --interface 127.0.0.2 -s -w '%{http_code}\n' "${args[@]}" | sort | uniq -c | tr -s ' ' | tr '\n' ',')
say "   300 requests at once from 127.0.0.2 (20/s, burst 100): ${codes%,}"
grep -q ' 429' <<< "$codes" || fail "no request past the burst was turned away with 429"
ok=$(grep -o '[0-9]* 200' <<< "$codes" | cut -d' ' -f1)
[[ ${ok:-0} -ge 100 ]] || fail "the burst of 100 should be served, only ${ok:-0} were"

# Not pass/fail: cache hits beside a static file of the same bytes, same nginx, same run.
url="/diagram?fen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R_w_KQkq_-_2_3"
curl -fs "http://127.0.0.1:$front$url" -o "$work/static/same.png"
curl -fs "http://127.0.0.1:$front$url" -o /dev/null
bytes=$(stat -c %s "$work/static/same.png")
rps() { wrk -t1 -c16 -d"${load_seconds}s" "$1" | awk '/Requests\/sec/ { print $2 }'; }
hit=$(rps "http://127.0.0.1:$front$url")
static=$(rps "http://127.0.0.1:$static_port/same.png")
hit2=$(rps "http://127.0.0.1:$front$url")
static2=$(rps "http://127.0.0.1:$static_port/same.png")
say "throughput, $bytes-byte PNG, wrk 1 thread 16 connections ${load_seconds} s each, alternated:"
say "   cache hits through nginx: $hit, $hit2 req/s"
say "   static file from nginx:   $static, $static2 req/s"
awk -v a="$hit" -v b="$hit2" -v c="$static" -v d="$static2" \
  'BEGIN { printf "   hits / static: %.0f %%\n", 100 * (a + b) / (c + d) }'
entries=$(find "$work/cache" -type f | wc -l)
on_disk=$(du -sb "$work/cache" | cut -f1)
say "nginx's cache now: $entries entries, $((on_disk / entries)) bytes each on disk (diagrams of 200-360 px)"
say "cluster-test: all checks passed"
