#!/usr/bin/env bash
# expect: 0
# A disable on the one command it is for, with its reason: allowed.
set -u
# shellcheck disable=SC2086 # words, split on purpose
echo $1
