#!/usr/bin/env bash
# Screenshots of the key public pages of `arbiter serve --demo` into docs/screenshots/,
# at a phone's width (375 px) and a laptop's (1280 px), with headless Chromium.
# Needs: chromium (Debian: apt-get install -y chromium fonts-noto-cjk), a release build.
# Usage: scripts/screenshots.sh [path/to/arbiter]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/arbiter}
[ -x "$bin" ] || cargo build -p arbiter-cli --release
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium 未安装 (chromium not installed)" >&2; exit 2; }
port=$((20000 + RANDOM % 20000))
"$bin" serve --demo --addr "127.0.0.1:$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/" >/dev/null && break
  sleep 0.5
done
out=docs/screenshots
mkdir -p "$out"
shot() { # name width height path
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size="$2,$3" --screenshot="$out/$1.png" "http://127.0.0.1:$port$4" >/dev/null 2>&1
  echo "$out/$1.png"
}
shot events-phone 375 700 /
shot event-home-phone 375 900 /e/ev-00000001
shot pairings-phone 375 1000 /e/ev-00000001/s/men/r/5
shot find-board-phone 375 700 "/e/ev-00000001/s/men/r/5?q=72"
shot standings-phone 375 900 /e/ev-00000001/s/men/standings
shot player-phone 375 900 /e/ev-00000001/s/men/p/72
shot teams-laptop 1280 900 /e/ev-00000001/teams
shot crosstable-laptop 1280 900 /e/ev-00000001/s/men/crosstable
shot screen-tv 1920 1080 /e/ev-00000001/s/men/r/5/screen
