#!/usr/bin/env bash
# Runs a command against a fresh local gateway: starts it on a free port (with its own emulator, its data in
# memory only, never the developer's .run/state), waits until the shop answers, prerenders its pages into a
# folder of its own (frontend/scripts/prerender-pages.mjs, when the storefront is built and the script
# exists; a failure stops here, with its output; the build is never written to, another shop may serve it),
# exports BASE_URL (and PAGES_DIR), runs the command, and stops the gateway and deletes its pages whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp -t gateway.XXXXXX.log)
pages=$(mktemp -d -t gateway-pages.XXXXXX)
dist=${FRONTEND_DIST:-frontend/dist}
# The gateway's own background prerender is off: it runs here instead, before the command, so the tests and
# benchmarks always see the prerendered pages.
PORT=$port LOCAL_PREFIX="e2e$port" LOCAL_STATE=memory LOCAL_PRERENDER=0 LOCAL_PAGES="$pages" \
  "${CARGO_TARGET_DIR:-target}/debug/local" >"$log" 2>&1 &
gateway=$!
trap 'kill $gateway 2>/dev/null; wait $gateway 2>/dev/null || true; rm -rf "$log" "$pages"' EXIT

for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/api/product/" >/dev/null 2>&1; then break; fi
  if ! kill -0 $gateway 2>/dev/null; then echo "The gateway stopped:"; cat "$log"; exit 1; fi
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$port/api/product/" >/dev/null || { echo "The gateway did not answer:"; cat "$log"; exit 1; }

script=frontend/scripts/prerender-pages.mjs
if [ -f "$script" ] && [ -f "$dist/index.html" ]; then
  if ! output=$(node "$script" --api "http://127.0.0.1:$port" --dist "$dist" --out "$pages" 2>&1); then
    echo "Prerendering the pages failed:"; echo "$output"; exit 1
  fi
  echo "$output" | tail -n 1
fi

export BASE_URL="http://127.0.0.1:$port" PAGES_DIR="$pages"
"$@"
