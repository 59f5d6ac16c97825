#!/usr/bin/env bash
# A second measurement of the bench's main figures, taken from outside its harness with public
# tools: hyperfine (Debian: `apt-get install hyperfine`) for wall times, GNU time
# (`/usr/bin/time`) for peak RSS. The loopback server runs as a process of its own
# (bench/serve.ts), the projects come from the same generator (bench/make-project.ts).
#
#   bash bench/outside.sh [--runs N] [--1m]
#
# Writes its tables to bench/results/outside-latest.md (git-ignored) and prints them.
# hyperfine runs each command's runs one after another (not interleaved like the harness),
# so compare ratios taken in the same call, never absolute times across calls.
set -euo pipefail
runs=10
with1m=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --1m) with1m=1; shift ;;
    *) echo "usage: bash bench/outside.sh [--runs N] [--1m]" >&2; exit 2 ;;
  esac
done
command -v hyperfine >/dev/null || { echo "outside.sh: hyperfine is missing (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "outside.sh: GNU time is missing (apt-get install time)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
npm run build --silent >/dev/null
npx tsc -p tsconfig.bench.json
bin="$root/dist/bundle/agentmark.cjs"
loop="$root/bench/bare-loop.mjs"
work=$(mktemp -d)
out="$root/bench/results/outside-latest.md"
pids=()
projects=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work" "${projects[@]}"; }
trap cleanup EXIT

serve() { # latency: starts a server (in this shell, so cleanup can stop it), its URL in $work/url-<latency>
  node .bench-dist/serve.js "$1" >"$work/url-$1" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 200); do [ -s "$work/url-$1" ] && return 0; sleep 0.05; done
  echo "outside.sh: the loopback server did not start" >&2
  exit 1
}
serve 0
serve 100
url0=$(head -n1 "$work/url-0")
url100=$(head -n1 "$work/url-100")
export OPENAI_API_KEY=bench NO_COLOR=1

project() { node .bench-dist/make-project.js "$1"; }
p1=$(project 1); p1k=$(project 1000); p10k=$(project 10000)
pts=$(project 1)
projects+=("$p1" "$p1k" "$p10k" "$pts")
cat >"$pts/agentmark.config.ts" <<'TS'
interface ScorerArgs { output: unknown; expectedOutput?: unknown }
export default {
  scorers: {
    same_text: ({ output, expectedOutput }: ScorerArgs) => ({ score: String(output) === String(expectedOutput) ? 1 : 0 }),
  },
};
TS
run() { # project dir, concurrency, base url → the command hyperfine runs
  echo "cd $1 && rm -rf .agentmark/runs && OPENAI_BASE_URL=$3 node $bin run-experiment prompts/bench.prompt.mdx --format jsonl --output /dev/null --quiet --concurrency $2 --no-cache"
}

median() { node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).results;for(const x of r){const t=[...x.times].sort((a,b)=>a-b);const m=t.length%2?t[(t.length-1)/2]:(t[t.length/2-1]+t[t.length/2])/2;console.log((m*1000).toFixed(1))}' "$1"; }
hf() { # name, hyperfine args…
  local name=$1; shift
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$work/$name.json" "$@" >/dev/null
  median "$work/$name.json"
}

{
  echo "# Outside measurement, $(date -u +'%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), $runs runs each, medians (ms)"
  echo
  mapfile -t s < <(hf startup -N 'node -e 0' "node $bin --version" "node $bin --help")
  echo "| start-up | node -e 0 ${s[0]} | --version ${s[1]} ($(node -e "console.log((${s[1]}/${s[0]}).toFixed(2))")×) | --help ${s[2]} ($(node -e "console.log((${s[2]}/${s[0]}).toFixed(2))")×) |"
  mapfile -t s < <(hf first-row 'node -e 0' "$(run "$p1" 1 "$url0")" "$(run "$pts" 1 "$url0")")
  echo "| one-row run (spawn → exit) | node -e 0 ${s[0]} | plain prompt ${s[1]} | with a TS config ${s[2]} |"
  mapfile -t s < <(hf rows1k "node $loop $url0 1000 50" "$(run "$p1k" 50 "$url0")")
  echo "| 1,000 rows, 0 ms, c=50 | bare loop ${s[0]} | CLI ${s[1]} | $(node -e "console.log((${s[1]}/${s[0]}).toFixed(2))")× |"
  mapfile -t s < <(hf rows10k "node $loop $url0 10000 50" "$(run "$p10k" 50 "$url0")")
  echo "| 10,000 rows, 0 ms, c=50 | bare loop ${s[0]} | CLI ${s[1]} | $(node -e "console.log((${s[1]}/${s[0]}).toFixed(2))")× |"
  mapfile -t s < <(hf latency "$(run "$p1k" 50 "$url100")")
  echo "| 1,000 rows, 100 ms, c=50 | ideal 2000 | CLI ${s[0]} | $(node -e "console.log((${s[0]}/2000).toFixed(2))")× |"
  if [ "$with1m" = 1 ]; then
    # Made inside the pipeline's subshell, whose own trap removes it.
    p1m=$(project 1000000)
    trap 'rm -rf "$p1m"' EXIT
    /usr/bin/time -f '%e %M' -o "$work/bare1m" node "$loop" "$url0" 1000000 100 >/dev/null
    (cd "$p1m" && OPENAI_BASE_URL=$url0 /usr/bin/time -f '%e %M' -o "$work/cli1m" node "$bin" run-experiment prompts/bench.prompt.mdx --format jsonl --output /dev/null --quiet --concurrency 100 --no-cache)
    read -r bs bk <"$work/bare1m"; read -r cs ck <"$work/cli1m"
    echo "| 1,000,000 rows, 0 ms, c=100 (one run each) | bare loop ${bs} s | CLI ${cs} s, peak RSS $((ck / 1024)) MB | $(node -e "console.log(($cs/$bs).toFixed(2))")× |"
  fi
} | tee "$out"
