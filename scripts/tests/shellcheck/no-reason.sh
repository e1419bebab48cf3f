#!/usr/bin/env bash
# expect: 1
# A disable after the first command, but without its reason.
set -u
# shellcheck disable=SC2086
echo $1
