# shellcheck shell=bash
# Results of expensive checks kept by the hash of everything they depend
# on (the tree at that commit, the config, the compiler and checker
# versions, the scripts that check), next to ccache outside the checkout:
# a check whose inputs did not change is not run again, and says
# "(cached)". Only passing results are kept. Sourced, never run.
RESULT_CACHE=${RESULT_CACHE:-/var/cache/sched-points/results}

# result_key: the key of the description read on stdin.
result_key() { sha256sum | cut -c1-40; }

# result_get KEY: print the result stored under KEY; false if none.
result_get() { cat "$RESULT_CACHE/$1" 2>/dev/null; }

# result_put KEY: store stdin under KEY (atomically).
result_put() {
	mkdir -p "$RESULT_CACHE"
	cat >"$RESULT_CACHE/$1.$$"
	mv "$RESULT_CACHE/$1.$$" "$RESULT_CACHE/$1"
}

# toolchain_id: the versions of what builds and checks the kernel.
toolchain_id() {
	gcc --version | head -1
	sparse --version 2>/dev/null || true
	make --version | head -1
	perl -e 'print "perl $]\n"'
	codespell --version 2>/dev/null || true
}

# script_id FILE...: the content of the scripts that decide a result.
script_id() { cat "$@" | result_key; }
