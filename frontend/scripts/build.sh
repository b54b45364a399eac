#!/usr/bin/env bash
# Builds the storefront (`npm run build`, `make frontend`), only when its sources changed, without ever
# touching the build a running shop serves.
#
# The build's id is a hash of everything it is made from (the sources, the public files, the page, the
# lockfile, the configs and these scripts). When frontend/dist is already that build, nothing happens
# (FORCE=1 builds anyway). Otherwise the build goes into a folder of its own, frontend/.build/<time>-<id>,
# and frontend/dist, a symbolic link, is pointed at it in one rename: a shop serving dist sees the old build
# or the new one, never half of one. One build runs at a time (a lock in frontend/.build/); one that waited
# finds the work done and stops. The two newest builds are kept (a prerender still reading the one before
# finishes), older ones deleted.
set -euo pipefail
cd "$(dirname "$0")/.."

builds=.build
mkdir -p "$builds"

build_id() {
  # File names and contents, in a fixed order: a renamed or deleted file changes the id too.
  find src public scripts index.html package.json package-lock.json vite.config.ts tsconfig*.json \
    -type f ! -name '*.test.ts' ! -name '*.test.tsx' -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16
}

current() { cat dist/.build-id 2>/dev/null || true; }

id=$(build_id)
if [ "${FORCE:-}" != 1 ] && [ "$(current)" = "$id" ]; then
  echo "The storefront is up to date (build $id): nothing to build."
  exit 0
fi

exec 9>"$builds/lock"
if ! flock -n 9; then
  echo "Another build of the storefront is running: waiting for it."
  flock 9
  if [ "${FORCE:-}" != 1 ] && [ "$(current)" = "$id" ]; then
    echo "The storefront is up to date (build $id), built meanwhile: nothing to build."
    exit 0
  fi
fi

name="$(date -u +%Y%m%dT%H%M%S%N)-$id"
out="$builds/$name"
trap 'rm -rf "$out.partial"' EXIT
npx tsc -b
npx vite build --outDir "$out.partial" --emptyOutDir
# The server bundle of src/prerender.tsx, for this build's prerenders (scripts/prerender.mjs now, and the
# running shop's pages later: scripts/prerender-pages.mjs). A dot folder: neither served nor uploaded.
npx vite build --ssr src/prerender.tsx --outDir "$out.partial/.prerender" --emptyOutDir
node scripts/prerender.mjs --dist "$out.partial"
echo "$id" >"$out.partial/.build-id"
mv "$out.partial" "$out"

# dist was a folder before builds had ids: it goes once, for the link.
if [ -d dist ] && [ ! -L dist ]; then rm -rf dist; fi
ln -sfn "$builds/$name" dist.next
mv -T dist.next dist
echo "frontend/dist is build $id ($out)."

# Keep the two newest builds, whatever dist points at.
ls -1d "$builds"/*/ 2>/dev/null | sed 's:/$::' | grep -v '\.partial$' | LC_ALL=C sort -r | tail -n +3 |
  while read -r old; do
    [ "$(readlink dist)" = "$old" ] || rm -rf "$old"
  done
