#!/usr/bin/env bash
# What `npm test` needs beyond `npm ci`: Debian's Chromium (the rater app's browser tests drive
# /usr/bin/chromium), a CJK font (for its Chinese interface) and the Noto fonts of the other study
# scripts the tests show (fonts-noto-core: Arabic script for Uyghur, Tibetan, Cyrillic; checked
# with `fc-list :lang=…`, as `stimkit check` and `stimkit report` do), and libjpeg-turbo's cjpeg
# and djpeg (libjpeg-turbo-progs: the independent reference of ingest's JPEG data check,
# test/ingest/jpeg-scan.test.ts). Installs whichever is missing
# with apt-get (after apt-get update; through sudo when not root) and does nothing when both are
# there. The README's test line and .ci/run run it before `npm test`:
#   bash scripts/test-deps.sh && npm test
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q 'ok installed' || need+=(fonts-noto-cjk)
dpkg-query -W -f='${Status}' fonts-noto-core 2>/dev/null | grep -q 'ok installed' || need+=(fonts-noto-core)
[ -x /usr/bin/djpeg ] && [ -x /usr/bin/cjpeg ] || need+=(libjpeg-turbo-progs)
[ ${#need[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-deps: missing ${need[*]} and no apt-get here: install Chromium at /usr/bin/chromium, a CJK font and Noto fonts for Arabic script and Tibetan, and libjpeg-turbo's cjpeg and djpeg, or the browser tests (test/label/browser.test.ts, test/view/languages-browser.test.ts) and test/ingest/jpeg-scan.test.ts fail" >&2
  exit 0
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi
echo "test-deps: installing ${need[*]} from Debian for the browser tests and the JPEG check's reference" >&2
"${SUDO[@]}" apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
