# Sourced by conformance/check and conformance/replay: installs the pinned dependencies (npm ci from
# package-lock.json: typescript, @types/node, smol-toml) when node_modules is missing or older than the
# lockfile, and builds src/ with tsc when dist/ is missing or older than a source. Runs in conformance/.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "conformance: needs Node.js 20+ and npm (not found on PATH)" >&2
  exit 2
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
if [ ! -f dist/check.js ] || [ ! -f dist/layers.js ] || [ ! -f dist/replay.js ] \
    || [ -n "$(find src tsconfig.json package-lock.json -newer dist/check.js)" ]; then
  ./node_modules/.bin/tsc -p tsconfig.json >&2
  touch dist/check.js
fi
