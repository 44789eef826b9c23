#!/usr/bin/env bash
# Screenshots of the key pages of `arbiter serve --demo` into docs/screenshots/, with headless
# Chromium: the public pages at a phone's width (375 px and 360 px), a laptop's (1280 px) and a
# TV's; the arbiters' desk logged in with the demo account (through chromedriver and the
# `screenshots` example of arbiter-web). It names every page that is wider than its screen.
# Needs: chromium, chromium-driver, fonts-noto-cjk (Debian), a release build.
# Usage: scripts/screenshots.sh [path/to/arbiter]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/arbiter}
[ -x "$bin" ] || cargo build -p arbiter-cli --release
cargo build -p arbiter-web --release --example screenshots
command -v chromedriver >/dev/null || { echo "chromedriver 未安装 (chromium-driver not installed)" >&2; exit 2; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium 未安装 (chromium not installed)" >&2; exit 2; }
port=$((20000 + RANDOM % 20000))
wdport=$((port + 1))
log=$(mktemp)
"$bin" serve --demo --addr "127.0.0.1:$port" >"$log" 2>&1 &
server=$!
chromedriver --port="$wdport" >/dev/null 2>&1 &
driver=$!
trap 'kill $server $driver 2>/dev/null || true; rm -f "$log"' EXIT
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
shot knockout-phone 375 800 /e/ev-00000004/s/open/knockout
shot crosstable-laptop 1280 900 /e/ev-00000001/s/men/crosstable
shot screen-tv 1920 1080 /e/ev-00000001/s/men/r/5/screen

# The desk (logged in as the demo chief arbiter) and the public pages at 360 px.
password=$(sed -n 's/.*: demo \/ \([^ ]*\)$/\1/p' "$log" | head -1)
[ -n "$password" ] || { echo "no demo password in the server's output" >&2; cat "$log" >&2; exit 1; }
target/release/examples/screenshots "http://127.0.0.1:$wdport" "http://127.0.0.1:$port" demo "$password" "$out"

# The registration list and the print page of the desk at a phone's size (375×812) and a
# laptop's (1280×800): saved by the browser test that measures the phone's buttons.
ARBITER_SCREENSHOTS="$PWD/$out" cargo test --release -p arbiter-web --test it \
  browser_checkin::on_a_phone_the_fee_and_check_in_buttons_are_on_screen -- --exact >/dev/null
for f in desk-entries-phone desk-entries-laptop desk-print-phone desk-print-qr-phone desk-print-laptop; do
  echo "$out/$f.png"
done
# The result desk's stories (typing a board, the confirmed round, the chief arbiter's
# correction) on a laptop and a phone: the browser tests of crates/web/tests/it/
# browser_results.rs save them where ARBITER_SCREENSHOTS says.
ARBITER_SCREENSHOTS="$PWD/$out" cargo test -p arbiter-web --release --test it browser_results:: -- --test-threads=1
ls "$out"/desk-results-*.png
# Registration on tournament day (new event's dates, the entry form with its errors, the
# settings, the online form, its summary and status page): saved by the browser tests
# themselves, phone 375×812 and laptop 1280×800.
ARBITER_SCREENSHOTS="$PWD/$out" cargo test --release -p arbiter-web --test it browser_entries:: -- --test-threads=1
