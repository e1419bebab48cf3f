#!/usr/bin/env bash
# expect: 1
# A disable before the first command covers the whole file, reason or not.

# shellcheck disable=SC2086 # words, split on purpose
set -u
echo $1
