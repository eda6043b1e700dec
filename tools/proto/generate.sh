#!/usr/bin/env bash
# Generates TypeScript from proto/ with ts-proto through buf (both from node_modules).
# Generated code is built, never committed: libs/contracts/src/generated is git-ignored.
set -euo pipefail
cd "$(dirname "$0")/../../proto"
../node_modules/.bin/buf lint
rm -rf ../libs/contracts/src/generated
../node_modules/.bin/buf generate
