#!/usr/bin/env bash
# moor's runtime for the GitHub Action (action.yml): its run-time dependencies only (npm ci
# --omit=dev: no browser, no database server, no test runner) and dist/. A packed moor (npm pack)
# carries dist/ already; a checkout of the repository builds it once with TypeScript and the type
# packages alone, which are removed again. The action caches dist/ and node_modules/ under `key`,
# so a pipeline's jobs install and build nothing while moor's sources stay the same.
#   action-install.sh key       writes key=… (moor's sources, lock file, OS, Node major) to $GITHUB_OUTPUT
#   action-install.sh install   installs (and builds when dist/ is missing) in moor's folder
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

case "${1:-}" in
  key)
    sources=$( { find package.json package-lock.json tsconfig.json tsconfig.build.json bin scripts -type f; [ -d src ] && find src -type f; [ -d dist ] && echo dist; } | LC_ALL=C sort)
    sum=$(printf '%s\n' "$sources" | grep -v '^dist$' | tr '\n' '\0' | xargs -0 sha256sum | sha256sum | cut -c1-16)
    # `node --version` (v20.19.0) answers without starting Node's JavaScript, as `node -p` would.
    version=$(node --version)
    major=${version#v}
    key="moor-runtime-$(uname -s)-node${major%%.*}-$sum"
    echo "key=$key" >> "${GITHUB_OUTPUT:-/dev/stdout}"
    ;;
  install)
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund
    if [ ! -f dist/cli/main.js ]; then
      echo "moor: building dist/ (once; the action caches it)"
      # The exact versions of the lock file, installed beside the runtime for this build only.
      tools=()
      for pkg in typescript @types/node @types/pg; do
        tools+=("$pkg@$(node -p "require('./package-lock.json').packages['node_modules/$pkg'].version")")
      done
      scratch="$(mktemp -d)"
      npm install --prefix "$scratch" --no-save --no-audit --no-fund --ignore-scripts --no-package-lock "${tools[@]}" > /dev/null
      # Every package the build tools brought (typescript, the types and theirs) that the runtime lacks, for this build only.
      added=()
      for dir in "$scratch"/node_modules/* "$scratch"/node_modules/@*/*; do
        name="node_modules/${dir#"$scratch/node_modules/"}"
        case "$name" in node_modules/.* | node_modules/@*/.* | */\*) continue ;; esac
        [ -d "$dir" ] && [ ! -e "$name" ] || continue
        cp -R "$dir" "$name"
        added+=("$name")
      done
      node node_modules/typescript/bin/tsc -p tsconfig.build.json
      node scripts/compile-schemas.mjs
      rm -rf "${added[@]}" "$scratch"
    fi
    node bin/moor.js --version
    ;;
  *)
    echo "usage: action-install.sh key|install" >&2
    exit 2
    ;;
esac
