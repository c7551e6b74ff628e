#!/bin/bash
# Seconds from `npm start` on an empty .data to the "Demo API key" line on stderr (issue 40: the
# README's first start), then Ctrl-C to the whole process group as a terminal sends it, and how
# many ECONNREFUSED lines the way out logged. Usage (from any directory; it deletes DIR/.data):
#   flock /work/bench.lock test/bench/first-start.sh [DIR] [PORT] [EMBEDDED_PG_PORT]
# Alternate two checkouts (before/after) run by run: the machine is shared.
dir=$(cd "${1:-$(dirname "$0")/../..}" && pwd); port=${2:-4781}; pg_port=${3:-54781}
out=$(mktemp); err=$(mktemp)
cd "$dir" && rm -rf .data
start=$(date +%s.%N)
PORT=$port EMBEDDED_PG_PORT=$pg_port METRICS_PORT=0 setsid npm start >"$out" 2>"$err" &
group=$!
until grep -q "Demo API key" "$err"; do
  kill -0 $group 2>/dev/null || { echo "npm start ended before printing a key:"; cat "$err"; exit 1; }
  sleep 0.05
done
seconds=$(echo "$(date +%s.%N) - $start" | bc)
kill -INT -- -$group
while pgrep -g $group >/dev/null; do sleep 0.2; done
echo "$(basename "$dir"): key after ${seconds} s, ECONNREFUSED lines on Ctrl-C: $(grep -c ECONNREFUSED "$out"), $(uptime | sed 's/.*load/load/')"
rm -f "$out" "$err"
