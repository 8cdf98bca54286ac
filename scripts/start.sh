#!/bin/sh
# `npm start`: installs and compiles what is missing, saying so before each step that can take a while, then runs
# the daemon in the foreground (arguments go to errandd: npm start -- --port 8080).
set -e
if [ ! -d node_modules ]; then
  echo 'errand: installing dependencies (npm ci; on a first install better-sqlite3 may compile for a few minutes)'
  npm ci --no-audit --no-fund
fi
echo 'errand: compiling (tsc)'
npm run --silent build
echo 'errand: starting the daemon (Ctrl-C stops it)'
exec node bin/errandd "$@"
