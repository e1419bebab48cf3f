# sched-points: schedule-point accounting for Linux.
# `make demo` and `make check` are the two commands; see README.md.
SHELL := /bin/bash
S := scripts

.PHONY: help docs demo check check-main check-kcsan bisect-check test-cache warnings rt-build distro-build arm64-build check-arm64 lint series bench deb-tool deb field-rootfs field-kernel field-run field-report field field-bench kernel tree export-patches selftests initramfs shell clean distclean

help:
	@echo "make demo            build the patched kernel, boot it in QEMU, show the pivot tables"
	@echo "make check           every test: lint, series checks, host tests, kselftests and KUnit"
	@echo "                     in QEMU on the kernel, the debug kernel (KASAN, lockdep) and arm64"
	@echo "make bench           cost of the accounting vs vanilla, kprobe+hist, bpftrace (build/bench/)"
	@echo "make check-main      make check without the debug kernel and the arm64 guest (quicker)"
	@echo "make check-kcsan     the concurrency tests on a KCSAN kernel (build/linux/obj-debug-kcsan)"
	@echo "make bisect-check    every prefix of the series builds (build/series-check)"
	@echo "make test-cache      change one patch on a scratch branch: only later prefixes rebuild"
	@echo "make warnings        sparse and W=1 on the series' files, against the pristine tree;"
	@echo "                     and the series compiled for i386 (build/series-check/obj-i386)"
	@echo "make rt-build        the series' files and hooks compile on PREEMPT_RT (build/linux/obj-rt)"
	@echo "make distro-build    the series' files compile with Debian's 6.12 config (build/series-check/obj-distro)"
	@echo "make arm64-build     the series' files cross-compile for arm64 (build/series-check/obj-arm64)"
	@echo "make check-arm64     make check's arm64 guest alone: the main kernel's suite cross-built, booted on"
	@echo "                     qemu-system-aarch64 -M virt, judged against selftests/manifest's arm64 variant"
	@echo "make series          the series and a cover letter in build/series/"
	@echo "make deb-tool        the tool as a Debian package, build/deb/schedpoints_VERSION_ARCH.deb"
	@echo "                     (sudo apt install ./build/deb/schedpoints_*.deb)"
	@echo "make deb             the patched kernel's Debian packages (bindeb-pkg) and the tool's, checked,"
	@echo "                     in build/deb/; KCONFIG=FILE: your config (default: the field kernel's)"
	@echo "make field-rootfs    the field guest's Debian 12 image with the applications (mmdebstrap,"
	@echo "                     root): build/field/rootfs.ext4 and rootfs.manifest, cached by content"
	@echo "make field-kernel    Debian's 6.12 config + SCHED_POINTS, reduced by localyesconfig to"
	@echo "                     kernel-config/field/modules: build/linux/obj-field, bootable with -kernel"
	@echo "make field           the image, the kernel, every application in QEMU against a kprobe+hist"
	@echo "                     oracle, then Documentation/field-report.md (issue 31); one application:"
	@echo "                     make field-run APP=pgbench|make|fio|nginx|stressng; the report alone:"
	@echo "                     make field-report"
	@echo "make field-bench     macro bench: guest instructions per unit of work of each field application"
	@echo "                     on vanilla (and bpftrace) and the series off, on, on with time and"
	@echo "                     histograms (the vanilla field kernel built too): build/field-bench/"
	@echo "make docs            regenerate the docs' shown outputs from the committed captures"
	@echo "                     (CAPTURE=DIR: first take a new demo capture, build/guest-demo/share)"
	@echo "make lint            checkpatch --strict, kernel-doc, the tool's static analysis"
	@echo "make kernel          build the patched kernel (build/linux/obj)"
	@echo "make tree            make the kernel work tree (build/linux) from patches/"
	@echo "make export-patches  write the tree's commits back to patches/"
	@echo "make shell           an interactive guest on this console"
	@echo "Variables: KERNEL_SRC=DIR (another 6.12.y tree),"
	@echo "           SP_INJECT=fail|partial|missing|skip|late|panic|hang (a fault that must fail)"

demo:
	$(S)/demo.sh

check:
	$(S)/check.sh

lint:
	$(S)/lint.sh

series:
	$(S)/make-series.sh

docs:
	$(S)/docs-check.sh $(if $(CAPTURE),--import $(CAPTURE),--update)

check-main:
	SP_VARIANTS=main $(S)/check.sh

check-kcsan:
	$(S)/install-deps.sh build guest
	SP_HOST_TESTS=0 SP_VARIANTS=debug-kcsan $(S)/check.sh

bisect-check:
	$(S)/bisect-check.sh

test-cache:
	$(S)/test-result-cache.sh

warnings:
	$(S)/warnings-check.sh
	$(S)/i386-build-check.sh

rt-build:
	$(S)/rt-build-check.sh

distro-build:
	$(S)/distro-build-check.sh

arm64-build:
	$(S)/arm64-build-check.sh

# make check's arm64 guest alone (issue 32), with its kept result.
check-arm64:
	SP_HOST_TESTS=0 SP_VARIANTS=arm64 $(S)/check.sh

bench:
	$(S)/bench.sh

deb-tool:
	$(S)/install-deps.sh deb
	$(S)/deb-tool.sh

# The kernel's and the tool's packages for a real machine (issue 31,
# item 6): bindeb-pkg from KCONFIG=FILE or the field kernel's config.
deb:
	$(S)/install-deps.sh build deb kernel-deb $(if $(KCONFIG),,field)
	KCONFIG=$(KCONFIG) $(S)/deb.sh

# The field guest's root file system (issue 31, item 2): the first step
# of make field.
field-rootfs:
	$(S)/install-deps.sh field
	$(S)/field-rootfs.sh

# The field guest's kernel (issue 31, item 1): Debian's configuration,
# reduced to the guest's devices, built in build/linux/obj-field.
field-kernel:
	$(S)/install-deps.sh build field
	$(S)/prepare-tree.sh
	$(S)/field-kernel.sh

# One field application (APP=pgbench|make|fio|nginx|stressng).
field-run:
	$(S)/field-run.sh $(APP)

field-report:
	$(S)/field-report.sh

# make field: the image, the kernel, each application against its
# oracle (kept while nothing changed), the report.
field: field-rootfs field-kernel
	$(S)/field.sh

# The macro bench (issue 31, item 5): the image, both field kernels
# (the series' and vanilla's), then one guest per kernel and application.
field-bench: field-rootfs field-kernel
	$(S)/install-deps.sh bench
	$(S)/field-kernel.sh --vanilla
	$(S)/field-bench.sh

tree:
	$(S)/install-deps.sh build
	$(S)/prepare-tree.sh

kernel:
	$(S)/install-deps.sh build
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
	rm -rf build/linux/obj build/linux/obj-* build/series-check/obj build/initramfs* build/guest-*

distclean:
	rm -rf build
