# sched-points: schedule-point accounting for Linux.
# `make demo` and `make check` are the two commands; see README.md.
SHELL := /bin/bash
S := scripts

.PHONY: help demo check bench kernel tree export-patches selftests initramfs shell clean distclean

help:
	@echo "make demo            build the patched kernel, boot it in QEMU, show the pivot tables"
	@echo "make check           every test: host tests, then kselftests in the guest"
	@echo "make bench           cost of the accounting vs vanilla, kprobe+hist, bpftrace (build/bench/)"
	@echo "make check-debug     make check, plus the suite on the debug kernel (KASAN, lockdep, KUnit)"
	@echo "make series          the series and a cover letter in build/series/"
	@echo "make lint            checkpatch --strict, kernel-doc, the tool's static analysis"
	@echo "make kernel          build the patched kernel (build/linux/obj)"
	@echo "make tree            make the kernel work tree (build/linux) from patches/"
	@echo "make export-patches  write the tree's commits back to patches/"
	@echo "make shell           an interactive guest on this console"
	@echo "Variables: KERNEL_SRC=DIR (another 6.12.y tree), SP_INJECT=fail|panic|hang"

demo:
	$(S)/demo.sh

check:
	$(S)/check.sh

lint:
	$(S)/lint.sh

series:
	$(S)/make-series.sh

check-debug:
	SP_VARIANTS="main debug" $(S)/check.sh

bench:
	$(S)/bench.sh

tree:
	$(S)/install-deps.sh
	$(S)/prepare-tree.sh

kernel:
	$(S)/install-deps.sh
	$(S)/build-kernel.sh

export-patches:
	$(S)/export-patches.sh

selftests: kernel
	$(S)/build-selftests.sh

initramfs: selftests
	$(S)/build-initramfs.sh

shell: initramfs
	$(S)/run-guest.sh shell

clean:
	rm -rf build/linux/obj build/initramfs* build/guest-*

distclean:
	rm -rf build
