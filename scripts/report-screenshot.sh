#!/usr/bin/env bash
# Renders a run's report in headless Chromium to a PNG (as the README's picture was made):
#   scripts/report-screenshot.sh RUN_DIR OUT.png [WIDTHxHEIGHT]
# Needs hoplite on PATH or HOPLITE=path, and Debian's chromium (apt-get install chromium).
set -euo pipefail
dir=${1:?usage: $0 RUN_DIR OUT.png [WIDTHxHEIGHT]}
out=${2:?usage: $0 RUN_DIR OUT.png [WIDTHxHEIGHT]}
size=${3:-900x1500}
hoplite=${HOPLITE:-$(command -v hoplite || echo target/release/hoplite)}
"$hoplite" report "$dir" --out "$dir/report.html"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
    --user-data-dir="$profile" --window-size="${size/x/,}" --screenshot="$out" \
    "file://$(realpath "$dir/report.html")" 2>/dev/null
echo "wrote $out"
