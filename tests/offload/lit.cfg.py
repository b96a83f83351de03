# lit configuration of the offload program suite.
#
# Parameter `compiler` chooses who builds the programs:
#   clang-14   Debian's clang 14 (default; feature `clang-14`)
#   clang-19   Debian's clang 19 (feature `clang-19`), against LLVM 19's
#              omp.h and libomp of scripts/fetch-llvm19-runtime.sh's prefix
#              (config.llvm19_dir); its programs need libomptarget.so.19.1.
#              Runtimes ours and llvm19 only; not in the sanitizer trees.
#
# Parameter `runtime` chooses whose libraries the programs run on:
#   ours                  our core + our host plugin (default)
#   llvm                  LLVM 14's core + LLVM 14's host plugin (reference)
#   llvm-core-our-plugin  LLVM 14's core + our host plugin  (interop b)
#   our-core-llvm-plugin  our core + LLVM 14's host plugin  (interop a)
#   llvm19                LLVM 19's libomptarget.so.19.1, its plugins built
#                         in (reference for clang-19 programs)
# The first four are clang-14 configurations, llvm19 a clang-19 one.
# FileCheck runs with prefixes CHECK plus OURS, LLVM or LLVM19 (whose core
# runs), so a test can pin a line that only one core prints. `%core` is that
# prefix, for a RUN line with prefixes of its own:
# `%fcheck --check-prefixes=BAD,BAD-%core` reads BAD-OURS, BAD-LLVM or
# BAD-LLVM19 lines besides the BAD ones. `%cc` is C14 or C19 (the compiler),
# the same way, for what a program shows differently because clang 14 and
# clang 19 call different entry points (messages that name the entry,
# profile span names: every clang 19 region is __tgt_target_kernel).
#
# Parameter `hostomp` chooses the libomp.so.5 the programs load: 14 (LLVM
# 14's, the system one) or 19 (LLVM 19's, from the prefix; feature
# `libomp-19`). Default: the one of the compiler's own release, as its users
# have.
# Tests marked `REQUIRES: omptarget-core` need our core (extensions, our own
# diagnostics); `REQUIRES: omptarget-plugin` need our plugin (async mode...);
# `UNSUPPORTED: interop` skips the mixed configurations.
#
# Parameter `hostmode` chooses the mode of our host plugin:
#   sync    the default mode (OMPTARGET_HOST_ASYNC unset)
#   async   OMPTARGET_HOST_ASYNC=1 in every test's environment: each queue
#           runs its operations on a worker thread after the call returns
# In async mode the feature `host-async` is set (only when our plugin runs):
# tests that need the asynchronous device say `REQUIRES: host-async`.
#
# Parameter `remote` runs every program on devices of other MPI ranks:
#   none    the program's own devices (default)
#   mpi1    `mpirun -np 1 PROGRAM : -np 1 omptarget-mpi-device`, the
#   mpi2    program's host devices hidden, so devices 0.. are the servers'
#           host devices (4 in all, as alone), through the MPI plugin
#           (inputs/run_on_mpi.sh). Runtime ours only; feature `remote-mpi`,
#           and not `omptarget-plugin` (the program's plugin is the MPI
#           plugin): a test that cannot hold there says `UNSUPPORTED:
#           remote-mpi` and why. With hostmode=async the servers' host
#           devices are asynchronous (real queues and events on the
#           servers); the feature `host-async` is not set, since the
#           program's own plugin is the MPI plugin.
import os
import subprocess
import lit.formats

config.name = "omptarget-offload"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["inputs"]

runtime = lit_config.params.get("runtime", "ours")
hostmode = lit_config.params.get("hostmode", "sync")
remote = lit_config.params.get("remote", "none")
if remote not in ("none", "mpi1", "mpi2"):
    lit_config.fatal("remote must be none, mpi1 or mpi2, not %r" % remote)
if remote != "none" and runtime != "ours":
    lit_config.fatal("remote=%s runs on our runtime only" % remote)
compiler = lit_config.params.get("compiler", "clang-14")
if hostmode not in ("sync", "async"):
    lit_config.fatal("hostmode must be sync or async, not %r" % hostmode)
if compiler not in ("clang-14", "clang-19"):
    lit_config.fatal("compiler must be clang-14 or clang-19, not %r" % compiler)
hostomp = lit_config.params.get("hostomp", compiler.split("-")[1])
if hostomp not in ("14", "19"):
    lit_config.fatal("hostomp must be 14 or 19, not %r" % hostomp)
runtimes = {"clang-14": ("ours", "llvm", "llvm-core-our-plugin", "our-core-llvm-plugin"),
            "clang-19": ("ours", "llvm19")}
if runtime not in runtimes[compiler]:
    other = [c for c in runtimes if runtime in runtimes[c]]
    lit_config.fatal("runtime=%s is a %s configuration, not a %s one (%s: runtime=%s)" % (
        runtime, other[0] if other else "unknown", compiler, compiler, "|".join(runtimes[compiler])))
llvm19_dir = getattr(config, "llvm19_dir", "")
if compiler == "clang-19" or hostomp == "19":
    if config.sanitizer:
        lit_config.fatal("the sanitizer trees build and run clang 14 programs on libomp 14 only")
    if compiler == "clang-19" and not (getattr(config, "clang19", "") and os.path.exists(config.clang19)):
        lit_config.fatal("compiler=clang-19 needs clang-19 (configure with -DOMPTARGET_CLANG19=...)")
    if not (llvm19_dir and os.path.exists(os.path.join(llvm19_dir, "lib", "libomptarget.so.19.1"))):
        lit_config.fatal("LLVM 19's OpenMP runtime not found at %r: run scripts/fetch-llvm19-runtime.sh "
                         "and configure with -DOMPTARGET_LLVM19_RUNTIME_DIR=<prefix>/usr/lib/llvm-19" % llvm19_dir)
llvm19_lib = os.path.join(llvm19_dir, "lib") if llvm19_dir else ""
if runtime == "llvm19" and hostomp != "19":
    # Its libomptarget.so.19.1 (RUNPATH $ORIGIN) brings its own libomp, and
    # libomp 14 stops at the second copy ("OMP: Error #15").
    lit_config.fatal("runtime=llvm19 runs on LLVM 19's libomp only (hostomp=19)")
# One output tree per configuration: CTest runs the configurations in parallel.
exec_name = runtime if hostmode == "sync" else runtime + "-" + hostmode
if compiler == "clang-19":
    exec_name = "c19-" + exec_name
if hostomp != compiler.split("-")[1]:
    exec_name += "-libomp" + hostomp
if remote != "none":
    exec_name += "-" + remote
config.test_exec_root = os.path.join(config.omptarget_build_dir, "tests", "offload", exec_name)
llvm_lib = os.path.join(config.llvm14_dir, "lib")
ours_lib = config.omptarget_lib_dir
core_lib, plugin_lib = {
    "ours": (ours_lib, ours_lib),
    "llvm": (llvm_lib, llvm_lib),
    "llvm-core-our-plugin": (llvm_lib, ours_lib),
    "our-core-llvm-plugin": (ours_lib, llvm_lib),
    # LLVM 19's plugins are inside its libomptarget.so.19.1.
    "llvm19": (llvm19_lib, llvm19_lib),
}[runtime]
if compiler == "clang-19" and core_lib == ours_lib and \
        not os.path.exists(os.path.join(ours_lib, "libomptarget.so.19.1")):
    lit_config.fatal("clang-19 programs load libomptarget.so.19.1, which this build has not made in %s"
                     % ours_lib)

if core_lib == plugin_lib:
    run_dir = core_lib
else:
    # A directory of symlinks that mixes one side's core with the other's plugin.
    run_dir = os.path.join(config.test_exec_root, "libs-" + runtime)
    os.makedirs(run_dir, exist_ok=True)
    for name, src in (("libomptarget.so", core_lib), ("libomptarget.rtl.x86_64.so", plugin_lib)):
        link = os.path.join(run_dir, name)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.join(src, name), link)
    config.available_features.add("interop")

# Where the programs find our libraries (and, under TSan, libomp).
run_libs = [run_dir]
core_is_ours = core_lib == ours_lib
plugin_is_ours = plugin_lib == ours_lib
if core_is_ours:
    config.available_features.add("omptarget-core")
if plugin_is_ours and remote == "none":
    config.available_features.add("omptarget-plugin")
if remote != "none":
    config.available_features.add("remote-mpi")
config.available_features.add("runtime-" + runtime)
config.available_features.add(compiler)
if hostomp == "19":
    config.available_features.add("libomp-19")
if hostmode == "async" and remote == "none":
    if not plugin_is_ours:
        lit_config.fatal("hostmode=async needs our host plugin (runtime=%s has %s)" % (
            runtime, "LLVM 19's" if runtime == "llvm19" else "LLVM 14's"))
    config.available_features.add("host-async")

base_flags = "-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -gline-tables-only -Wno-openmp-mapping"
if config.sanitizer:
    base_flags += " -fsanitize=" + config.sanitizer
    # Our libraries are C++: UBSan's checks of dynamic types (vptr) need the
    # C++ part of its runtime, which clang links into C++ programs only.
    if "undefined" in config.sanitizer.split(","):
        base_flags += " -fsanitize-link-c++-runtime -lstdc++"
include = os.path.join(os.path.dirname(os.path.dirname(config.test_source_root)), "include")
core_prefix = "OURS" if core_is_ours else "LLVM19" if runtime == "llvm19" else "LLVM"
prefixes = "CHECK," + core_prefix
# LOCAL: lines a device prints (printf in a target region), in order with the
# program's own only when the device is in the program's process: a remote
# device's output is its server's, which mpirun forwards apart.
if remote == "none":
    prefixes += ",LOCAL"
if compiler == "clang-19":
    # As a clang-19 user builds: LLVM 19's omp.h (clang 19's resource
    # directory has none without libomp-19-dev) and its libomp.so and
    # libomptarget.so (soname libomptarget.so.19.1). The library directory
    # comes through LIBRARY_PATH, which clang searches after every -L of the
    # command line: tests that link our extensions with -L%libdir (our
    # libomptarget.so) still find them.
    cc = "env LIBRARY_PATH=%s %s" % (llvm19_lib, config.clang19)
    cxx = "env LIBRARY_PATH=%s %s" % (llvm19_lib, config.clang19.replace("clang-19", "clang++-19"))
    include_flags = " -I" + include + " -I" + os.path.join(llvm19_lib, "clang", "19", "include")
else:
    cc = config.clang
    cxx = config.clang + "++"
    include_flags = " -I" + include

config.substitutions.append(("%clangxx-offload", cxx + " " + base_flags + include_flags))
config.substitutions.append(("%clang-offload", cc + " " + base_flags + include_flags))
config.substitutions.append(("%clang-plain", cc + " -fopenmp" + (include_flags if compiler == "clang-19" else "")))
config.substitutions.append(("%fcheck", config.filecheck + " %s --allow-unused-prefixes --check-prefixes=" + prefixes))
config.substitutions.append(("%core", core_prefix))
config.substitutions.append(("%cc", "C" + compiler.split("-")[1]))
config.substitutions.append(("%libdir", run_dir))
config.substitutions.append(("%llvm14_bin", os.path.join(config.llvm14_dir, "bin")))
# Our device listing (tools/omptarget-info), and the queue mode it reports
# for our host plugin's devices in this configuration.
config.substitutions.append(("%omptarget_info", os.path.join(config.omptarget_bin_dir, "omptarget-info")))
repo_root = os.path.dirname(os.path.dirname(config.test_source_root))
config.substitutions.append(("%omptarget_profile", os.path.join(repo_root, "tools", "omptarget-profile")))
if getattr(config, "nvtx_injection", ""):
    config.available_features.add("nvtx")
    config.substitutions.append(("%nvtx_injection", config.nvtx_injection))
config.substitutions.append(("%check_profile", "python3 " + os.path.join(config.test_source_root, "inputs", "check_profile.py")))
config.substitutions.append(("%host_queue_mode", "asynchronous" if hostmode == "async" else "synchronous"))

# Keep the caller's LIBOMPTARGET_*/OMP_* out of the tests: each test sets what it needs.
for var in list(os.environ):
    if var.startswith(("LIBOMPTARGET_", "OMP_", "OMPTARGET_")):
        del os.environ[var]
# ...and ours: lit passes config.environment to every RUN line.
if hostmode == "async":
    config.environment["OMPTARGET_HOST_ASYNC"] = "1"
# Sanitizer builds (OMPTARGET_SANITIZER, e.g. scripts/test.sh's trees): the
# programs are built with the same -fsanitize (base_flags above) and run on
# the tree's sanitized libraries. Features `sanitizer` and `asan`, `ubsan`,
# `tsan` for tests that cannot run under one (each says why). A report makes
# the program fail (halt_on_error; LeakSanitizer's exit code) and is written
# to sanitizer-logs/ in the test's output tree instead of stderr: tests that
# capture stderr, or expect a failure (`not`), would hide it, so whoever runs
# the suite checks that the directory holds no report (scripts/test.sh does).
# The suppression files are tests/sanitizers/*.supp, each line with its
# reason.
if config.sanitizer:
    sanitizers = config.sanitizer.split(",")
    config.available_features.add("sanitizer")
    for name, feature in (("address", "asan"), ("undefined", "ubsan"), ("thread", "tsan")):
        if name in sanitizers:
            config.available_features.add(feature)
    log = os.path.join(config.test_exec_root, "sanitizer-logs", "report")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    supp = os.path.join(repo_root, "tests", "sanitizers")
    # allocator_may_return_null: tests ask for impossible sizes (1 << 60)
    # and expect NULL, as from the real malloc.
    common = "log_path=%s:allocator_may_return_null=1" % log
    config.environment["ASAN_OPTIONS"] = common + ":detect_leaks=1"
    config.environment["LSAN_OPTIONS"] = "suppressions=" + os.path.join(supp, "lsan.supp")
    config.environment["UBSAN_OPTIONS"] = "log_path=%s:halt_on_error=1:print_stacktrace=1" % log + \
        ":suppressions=" + os.path.join(supp, "ubsan.supp")
    if "thread" in sanitizers:
        # ignore_noninstrumented_modules: libomp's own calls of intercepted
        # functions (its pthread mutexes, malloc, memcpy) are not checked, as
        # Archer's documentation asks.
        config.environment["TSAN_OPTIONS"] = common + ":halt_on_error=1:ignore_noninstrumented_modules=1" + \
            ":suppressions=" + os.path.join(supp, "tsan.supp")
        # libomp 14 is not instrumented: Archer, LLVM's OMPT tool for
        # ThreadSanitizer, tells TSan about libomp's barriers, tasks, locks
        # and dependences, which would otherwise look like races. Loaded
        # through tests/sanitizers/archer_shim.c, which works around two of
        # Archer 14's crashes and orders host `teams` leagues, which Archer 14
        # leaves unordered.
        # The programs load libomp 14 with its task memory on malloc/free
        # (scripts/build-tsan-libomp.sh, tests/sanitizers/libomp-malloc.patch):
        # the stock one recycles a finished task's memory through free lists
        # of its own, which neither TSan nor Archer 14 sees, so the next
        # task's data written by the creating thread "raced" with the
        # finished task's reads of its own arguments on the thread that ran
        # it (a target task reading its base pointers, nowait_map_churn.cpp).
        if not config.tsan_libomp_dir:
            lit_config.fatal("a ThreadSanitizer build runs the programs on the libomp of "
                             "scripts/build-tsan-libomp.sh: configure with "
                             "-DOMPTARGET_TSAN_LIBOMP_DIR=<the directory it prints>")
        run_libs = [run_dir, config.tsan_libomp_dir]
        if not config.archer_shim:
            lit_config.fatal("a ThreadSanitizer build needs tests/sanitizers' Archer shim (clang, libarcher.so)")
        config.environment["OMP_TOOL_LIBRARIES"] = config.archer_shim
        # Archer 14 also crashes on libomp 14's hidden helper threads, which
        # get no thread-begin or implicit-task events (llvm-project issue
        # 62764): without them a `nowait` region's task is an ordinary
        # deferred task of the encountering thread's team (the asynchronous
        # host device, hostmode=async, still runs its queues on threads of
        # its own). Turned off by their number, 0: LIBOMP_USE_HIDDEN_HELPER_TASK=0
        # leaves their 8 slots reserved in libomp 14's thread table while
        # counting them as free, and a program with many teams then fails
        # with "OMP: Error #132: Thread identifier invalid"
        # (launch_combined_constructs.c).
        config.environment["LIBOMP_NUM_HIDDEN_HELPER_THREADS"] = "0"
# `%uninstrumented PROGRAM`: a program not built here (LLVM 14's
# llvm-omp-device-info) on our libraries. Under ASan it has no sanitizer
# runtime of its own, so clang's shared one is preloaded for our sanitized
# libraries to resolve against. (TSan's cannot be preloaded into a program
# it did not start with: such tests say `UNSUPPORTED: tsan`.)
preload = ""
if config.sanitizer and "address" in config.sanitizer.split(","):
    preload = "env LD_PRELOAD=" + os.path.join(
        subprocess.check_output([config.clang, "-print-resource-dir"], text=True).strip(),
        "lib", "linux", "libclang_rt.asan-x86_64.so")
config.substitutions.append(("%uninstrumented", preload))
# The host libomp (hostomp): a directory holding only its libomp.so.5, ahead
# of the runtime's (LLVM 19's lib directory holds its libomp.so.5 as well,
# LLVM 14's its own). clang-14 programs on libomp 14 keep the system's, as
# they always did.
if compiler == "clang-19" or hostomp != "14":
    libomp_dir = os.path.join(config.test_exec_root, "libomp-" + hostomp)
    os.makedirs(libomp_dir, exist_ok=True)
    link = os.path.join(libomp_dir, "libomp.so.5")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.join(llvm_lib if hostomp == "14" else llvm19_lib, "libomp.so.5"), link)
    run_libs.insert(0, libomp_dir)
run_prefix = "env LD_LIBRARY_PATH=" + os.pathsep.join(run_libs)
if remote != "none":
    server = os.path.join(config.omptarget_bin_dir, "omptarget-mpi-device")
    if not os.path.exists(server):
        lit_config.fatal("remote=%s needs %s (build the MPI plugin: libopenmpi-dev)" % (remote, server))
    import shutil
    if not shutil.which("mpirun"):
        lit_config.fatal("remote=%s needs mpirun (scripts/install-deps.sh installs openmpi-bin)" % remote)
    run_prefix += " " + os.path.join(config.test_source_root, "inputs", "run_on_mpi.sh") + \
        " %s %s" % (remote[3:], server)
config.substitutions.append(("%run", run_prefix))
# A hung test (a deadlock) fails after this many seconds instead of hanging
# the suite (lit needs psutil for it; without psutil the tests that could
# hang also wrap themselves in `timeout`).
try:
    import psutil  # noqa: F401
    lit_config.maxIndividualTestTime = 120
except ImportError:
    pass
# `not --crash` runs LLVM's external `not` tool: make LLVM 14's bin reachable.
config.environment["PATH"] = os.pathsep.join(
    p for p in (os.environ.get("PATH", ""), os.path.join(config.llvm14_dir, "bin")) if p)
