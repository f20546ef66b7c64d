# SPDX-License-Identifier: GPL-2.0
"""Mutation testing: put one mutant at a time into a copy of the tree, run
the test suites that own its layer, and report which mutants the tests
catch.  Called by scripts/mutate.sh (see there for usage).

The working files are never changed: the tree's files are copied once,
and each worker (--jobs) gets its own copy of that, built in place and its
suites run once (a red tree is refused before any mutant).  A worker keeps
its tree: each mutant is written into it, the layer rebuilt incrementally,
its suites run fastest first, and the original text written back; a tree
a mutant may have disturbed is replaced by its built copy (worker.py).
"""

import argparse
import difflib
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import queue
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutants import mutants_of, normalise  # noqa: E402
from worker import WorkerTree, suite_order  # noqa: E402

DEC = "tools/spe-decode/lib/"
VIEWS = "tools/spe-decode/views/"
DRV = "drivers/perf/"

# Layer -> (source files, build command, suites that own the layer).  The
# suites run fastest first, by their time on the pristine tree (measured
# at each run), so a killed mutant usually dies early; the order here is
# that of the pristine run.  The build command only decides "does not
# compile"; the suites rebuild what they need themselves.
# Every .c file of tools/spe-decode/lib, views and cli is in one layer:
# unlayered() lists those that are not, and the unit test of this tool
# (test_mutate.py, suite 10) fails on any, so a new file cannot escape.
DEC_BUILD = ["make", "-s", "-C", "tools/spe-decode", "all", "tests"]
CLI = "tools/spe-decode/cli/"
# Suite 20 runs the library's unit tests (test_<file> for most files):
# it is the fast first judge of every library layer but packet and record.
UNITS = "20-perfdata-units-writer"
LAYERS = {
    # 14 runs 10 and 11 under ASan+UBSan: a mutant that only reads past
    # the end of the buffer changes no output, the sanitizer sees it.
    "packet": ([DEC + "packet.c"], DEC_BUILD,
               ["11-decoder-golden", "10-decoder-unit",
                "14-decoder-sanitizers", "12-decoder-perf-diff"]),
    "record": ([DEC + "record.c"], DEC_BUILD,
               ["11-decoder-golden", "10-decoder-unit",
                "14-decoder-sanitizers", "12-decoder-perf-diff"]),
    # perf report -D's text of packets and buffers, and the printf sink
    # it is written through.
    "dump": ([DEC + f for f in ("packet_print.c", "dump.c",
                                "sink_printf.c")], DEC_BUILD,
             ["11-decoder-golden", "10-decoder-unit",
              "12-decoder-perf-diff"]),
    # Reading a recording: perf.data, its AUX queues and windows, samples
    # (the queues' heap is inline in queue_heap.h, the walk's commonest
    # step in aux_queue.h, the data source's level key in
    # data_source_key.h).
    "perfdata": ([DEC + f for f in ("sample_synth.c", "data_source.c",
                                    "data_source_key.h",
                                    "perf_time.c", "aux_queue.c",
                                    "aux_queue.h",
                                    "aux_window.c", "session.c",
                                    "tid_map.c", "queue_heap.h",
                                    "perf_data_read.c", "perf_recording.c")],
                 DEC_BUILD,
                 [UNITS, "24-perfdata-symbols",
                  "21-perfdata-vs-perf", "22-perfdata-corrupt",
                  "25-perfdata-memory"]),
    # Writing perf.data (wrap, inject) and its SAMPLE_TIME feature: host
    # perf reads what wrap and inject write (21, 17; 17 also perf's
    # --time=PERCENT over the written time range).
    "writer": ([DEC + f for f in ("perf_data_write.c", "sample_time.c")],
               DEC_BUILD,
               [UNITS, "21-perfdata-vs-perf", "17-decoder-user-files",
                "22-perfdata-corrupt"]),
    # Addresses to symbols: ELF symbol tables, PLT entries, demangling,
    # the symbol store and the DSOs loaded for it.
    "symbols": ([DEC + f for f in ("symbols.c", "symtab.c", "sym_store.c",
                                   "dso_load.c", "plt_symbols.c",
                                   "demangle.c")], DEC_BUILD,
                [UNITS, "19-decoder-symbols", "24-perfdata-symbols",
                 "26-views-cost-table"]),
    # Decoding AUX buffers on worker threads: the results must be those
    # of one thread (15 compares them, also under ThreadSanitizer).
    "workers": ([DEC + "decode_workers.c"], DEC_BUILD,
                [UNITS, "15-decoder-threads"]),
    # The views of a recording: report's summary, cost tables, c2c, the
    # HTML page, their rows, latency counts and source lines.  Suite 20's
    # unit tests link LeakSanitizer (tools/build/flags.mk), and
    # test_report checks spe_report_free() gives back its mapping.
    # (report.c is the library's; the others are views/, libspe-views.a.)
    "views": ([DEC + "report.c"] +
              [VIEWS + f for f in ("view_sample.c", "latency_counts.c",
                                   "keyed_rows.c", "cost_table.c", "c2c.c",
                                   "srcline.c", "html_report.c")], DEC_BUILD,
              [UNITS, "26-views-cost-table", "27-views-c2c",
               "28-views-pprof", "29-views-html"]),
    # Small containers and the error and version tables every layer uses.
    # (and of views/ the string arena and the golden-vector encoder)
    "support": ([DEC + f for f in ("error.c", "grow.c", "version.c")] +
                [VIEWS + f for f in ("str_arena.c", "vector.c")], DEC_BUILD,
                ["10-decoder-unit", UNITS, "11-decoder-golden"]),
    # The command line: options, filters, inputs and outputs of every
    # command.  10 checks usage errors, 18 perf's options and defaults,
    # 17 the files written, 15 -j and the writer thread, 11 and 12 the
    # text commands, 26-28 the views' commands.
    "cli": (None, ["make", "-s", "-C", "tools/spe-decode", "all", "tests"],
            ["10-decoder-unit", "18-decoder-perf-defaults",
             "17-decoder-user-files", "15-decoder-threads",
             "11-decoder-golden", "12-decoder-perf-diff",
             "26-views-cost-table", "27-views-c2c", "28-views-pprof"]),
    # The files the host driver tests compile (drivers/perf/tests/Makefile:
    # PORTABLE, GLUE, PCS_OBJ and PCS_GLUE).
    "driver": ([DRV + f for f in ("spe_caps.c", "spe_format.c",
                                  "spe_aux_window.c", "spe_pmbsr.c",
                                  "spe_core.c", "spe_aux.c", "spe_irq.c",
                                  "spe_unit.c",
                                  "pcsample/pcsample_decode.c",
                                  "pcsample/pcsample_pmu.c",
                                  "pcsample/pcsample_round.c")],
               ["make", "-s", "-C", "drivers/perf/tests"],
               ["40-driver-logic"]),
    "model": ([DRV + "sim/spe_spu_model.c"],
              ["make", "-s", "-C", "tools/spu-model", "all", "tests"],
              ["31-model-gen", "30-model-rules", "32-model-roundtrip"]),
}

# The directories whose every .c file must be in a layer.
COVERED_DIRS = (DEC, VIEWS, CLI)


def layer_files(top, layer):
    """The layer's source files, relative to top.  The cli layer is every
    .c file of the CLI's directory, so a new command is in it at once."""
    files = LAYERS[layer][0]
    if files is None:
        files = sorted(CLI + f for f in os.listdir(os.path.join(top, CLI))
                       if f.endswith(".c"))
    return files


def unlayered(top):
    """The .c files of COVERED_DIRS that no layer names."""
    inside = set()
    for layer in LAYERS:
        inside.update(layer_files(top, layer))
    out = []
    for d in COVERED_DIRS:
        for f in sorted(os.listdir(os.path.join(top, d))):
            if f.endswith(".c") and d + f not in inside:
                out.append(d + f)
    return out


def log(msg):
    print(msg, file=sys.stderr, flush=True)


RUNNING = set()
STOPPING = []


# A mutant can turn a loop into one that never ends while it writes: each
# file a suite writes is capped (a write past it fails, and the suite with
# it), so a mutant cannot fill the disk before its timeout.
FILE_SIZE_LIMIT = 1 << 30


def limit_files():
    resource.setrlimit(resource.RLIMIT_FSIZE,
                       (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))


def run(cmd, cwd, timeout, env=None):
    """Run cmd in its own process group; (status, output, timed_out).
    Its temporary files go under cwd (TMPDIR), so they go with the
    mutant's tree even when the timeout kills the suite before its own
    clean-up runs."""
    if env is not None:
        env = dict(env, TMPDIR=cwd)
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True,
                         env=env, preexec_fn=limit_files)
    RUNNING.add(p)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return -1, out.decode("utf-8", "replace"), True
    finally:
        RUNNING.discard(p)


def kill_strays(tree):
    """Kill what is left running from tree.  A suite's own `timeout`
    command puts its child in another process group, which the group
    kill at a mutant's timeout misses: a mutant that loops forever there
    would keep a CPU busy long after its tree is gone."""
    prefix = os.path.join(tree, "")
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().decode("utf-8", "replace")
            exe = os.readlink("/proc/%s/exe" % pid)
        except OSError:
            continue
        if exe.startswith(prefix) or prefix in cmd:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass


def stop(signum, frame):
    """Interrupted: end every running suite, then unwind (the temporary
    trees are removed on the way out)."""
    STOPPING.append(signum)
    for p in list(RUNNING):
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
    raise KeyboardInterrupt


def suite_failed(rc, out):
    """As scripts/run-tests.sh: a failure is a 'not ok' that is not a
    TODO, or a non-zero exit."""
    for line in out.splitlines():
        if line.startswith("not ok") and "# TODO" not in line:
            return True
    return rc != 0


def suite_cmd(tree, name):
    return ["bash", os.path.join(tree, "scripts", "suites", name + ".sh")]


def make_pristine(top, work):
    """Copy the tree's files (tracked and new, not ignored) to work/base."""
    base = os.path.join(work, "base")
    os.makedirs(base)
    try:
        files = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], cwd=top, check=True,
            stdout=subprocess.PIPE).stdout.split(b"\0")
        files = [f for f in files if f and os.path.exists(
            os.path.join(top.encode(), f))]
        subprocess.run(["tar", "-cf", "-", "--null", "-T", "-"], cwd=top,
                       input=b"\0".join(files), check=True,
                       stdout=open(os.path.join(work, "tree.tar"), "wb"))
        subprocess.run(["tar", "-xf", os.path.join(work, "tree.tar")],
                       cwd=base, check=True)
    except (OSError, subprocess.CalledProcessError):
        # Not a git checkout: everything but the build output.
        subprocess.run(["cp", "-a", top + "/.", base], check=True)
        shutil.rmtree(os.path.join(base, "build"), ignore_errors=True)
    return base


def load_equivalents(filename):
    """Keys of mutants known to be equivalent: 'file: before => after'
    lines; '#' lines are the justification of the entry below them."""
    keys = {}
    if not os.path.exists(filename):
        return keys
    why = []
    with open(filename) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#") or not line.strip():
                if line.startswith("#"):
                    why.append(line[1:].strip())
                else:
                    why = []
                continue
            path, _, change = line.partition(": ")
            before, sep, after = change.partition(" => ")
            if not sep:
                log("mutate: %s: not 'file: before => after': %s" % (
                    os.path.basename(filename), line))
                sys.exit(2)
            keys["%s: %s => %s" % (path.strip(), normalise(before),
                                   normalise(after))] = " ".join(why)
            why = []
    return keys


def select(top, layers, sample, seed):
    """All mutants of the layers' files, or a deterministic sample of
    `sample` of them, spread evenly over the layers."""
    chosen = []
    pools = {}
    for layer in layers:
        pools[layer] = []
        for path in layer_files(top, layer):
            with open(os.path.join(top, path)) as f:
                text = f.read()
            pools[layer] += [(layer, m, text) for m in mutants_of(path, text)]
    # Even shares; what a small layer cannot use goes to the others.
    share = dict.fromkeys(layers, 0)
    left = sample
    while left > 0:
        open_layers = [x for x in layers if share[x] < len(pools[x])]
        if not open_layers:
            break
        each = max(1, left // len(open_layers))
        for x in open_layers:
            take = min(each, len(pools[x]) - share[x], left)
            share[x] += take
            left -= take
    for layer in layers:
        pool = pools[layer]
        if sample and share[layer] < len(pool):
            rng = random.Random("%s:%s" % (seed, layer))
            idx = sorted(rng.sample(range(len(pool)), share[layer]))
            pool = [pool[i] for i in idx]
        chosen += pool
    return chosen


def judge(tree, build, suites, timeout, env):
    """Build the mutated tree and run the suites in the given order:
    (verdict, suite).  One budget of timeout seconds covers the build and
    every suite."""
    start = time.monotonic()
    rc, out, to = run(build, tree, timeout, env)
    if to:
        return "timeout", "build"
    if rc != 0:
        return "uncompilable", ""
    for s in suites:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            return "timeout", s
        rc, out, to = run(suite_cmd(tree, s), tree, left, env)
        if to:
            return "timeout", s
        if suite_failed(rc, out):
            return "killed", s
    return "survived", ""


def test_mutant(w, layer, m, text, timeout, order, env):
    """Judge one mutant in worker tree w, then give the tree back as it
    was (or reset it): (verdict, suite, reset reasons)."""
    verdict, suite = "timeout", "interrupted"
    try:
        w.put(m.path, m.apply(text))
        verdict, suite = judge(w.path, LAYERS[layer][1], order, timeout, env)
    finally:
        # Nothing of the mutant may run on into the next one.
        kill_strays(w.path)
        why = w.give_back(m.path, text, verdict == "timeout")
    return verdict, suite, why


def prepare(tree, layers, env, timing=None):
    """Build the pristine tree for each layer and run its suites (which
    build every variant they use).  With timing (a dict), also the
    layer's seconds for its timeout (build from scratch and suites, as
    before any mutant) and, from a second run of the suites on the built
    tree (as a mutant's run, with nothing to rebuild), each suite's
    seconds for their order.  False when a build or a suite fails."""
    for layer in layers:
        s0 = time.monotonic()
        rc, out, _ = run(LAYERS[layer][1], tree, 1800, env)
        if rc != 0:
            log(out[-3000:])
            log("mutate: the unmutated tree does not build (%s)" % layer)
            return False
        passes = 2 if timing is not None else 1
        for n in range(passes):
            secs = {}
            for s in LAYERS[layer][2]:
                t = time.monotonic()
                rc, out, _ = run(suite_cmd(tree, s), tree, 1800, env)
                if suite_failed(rc, out):
                    log(out[-3000:])
                    log("mutate: suite %s fails on the unmutated tree" % s)
                    return False
                secs[s] = time.monotonic() - t
            if n == 0 and timing is not None:
                timing[layer] = {"took": time.monotonic() - s0}
        if timing is not None:
            timing[layer]["suites"] = secs
    return True


def main():
    ap = argparse.ArgumentParser(prog="scripts/mutate.sh")
    ap.add_argument("--layer", default=",".join(LAYERS),
                    help="comma-separated: " + ", ".join(LAYERS))
    ap.add_argument("--sample", type=int, default=0,
                    help="test N mutants in all (0: every mutant)")
    ap.add_argument("--seed", default=None,
                    help="the sample's seed (default: a random one, "
                    "printed so the run can be repeated)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=0,
                    help="seconds per mutant (default: 3x the pristine "
                    "run of the layer's suites, at least 60)")
    ap.add_argument("--match", default="",
                    help="only mutants whose 'file: before => after' key "
                    "contains this regular expression")
    ap.add_argument("--list", action="store_true",
                    help="list the selected mutants, run nothing")
    ap.add_argument("--report", default="build/mutate/report.txt")
    ap.add_argument("--equivalents", default="scripts/mutate-equivalent.txt")
    a = ap.parse_args()

    top = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    layers = [x for x in a.layer.split(",") if x]
    for x in layers:
        if x not in LAYERS:
            ap.error("unknown layer '%s' (known: %s)" % (x, ", ".join(LAYERS)))
    if a.jobs < 1 or a.sample < 0:
        ap.error("--jobs must be at least 1 and --sample not negative")
    if a.seed is None:
        a.seed = str(random.SystemRandom().randrange(1, 1 << 31))
        log("# seed %s (chosen at random: --seed %s repeats this run)"
            % (a.seed, a.seed))
    else:
        log("# seed %s" % a.seed)
    a.unlayered = unlayered(top)
    log("# files of %s in no layer: %s" % (
        " and ".join(COVERED_DIRS), " ".join(a.unlayered) or "none"))
    equiv = load_equivalents(os.path.join(top, a.equivalents))
    chosen = select(top, layers, a.sample, a.seed)
    if a.match:
        import re
        rx = re.compile(a.match)
        chosen = [c for c in chosen if rx.search(c[1].key(c[2]))]

    if a.list:
        for layer, m, text in chosen:
            before, after = m.lines(text)
            print("%s %s:%d %s: %s  =>  %s" % (
                layer, m.path, m.line_no(text), m.op, normalise(before),
                normalise(after)))
        return 0

    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    env.pop("MAKELEVEL", None)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    work = tempfile.mkdtemp(prefix="spe-mutate-")
    t0 = time.monotonic()
    trees = []
    try:
        base = make_pristine(top, work)
        log("# pristine tree: building and running the owning suites")
        timing = {}
        first = WorkerTree(base, os.path.join(work, "w0"))
        trees.append(first)
        if not first.set_up(lambda t: prepare(t, layers, env, timing)):
            return 1
        limit, order = {}, {}
        for layer in layers:
            took = timing[layer]["took"]
            secs = timing[layer]["suites"]
            limit[layer] = a.timeout or max(60, int(3 * took))
            order[layer] = suite_order(LAYERS[layer][2], secs)
            log("# %s: suites pass in %.0f s, timeout %d s per mutant; "
                "order %s" % (layer, took, limit[layer], ", ".join(
                    "%s (%.1f s)" % (s, secs[s]) for s in order[layer])))

        # The other workers' trees are set up by their first mutant.
        idle = queue.Queue()
        idle.put(first)
        for j in range(1, a.jobs):
            w = WorkerTree(base, os.path.join(work, "w%d" % j))
            trees.append(w)
            idle.put(w)
        setup_lock = threading.Lock()
        results = [None] * len(chosen)

        def job(i):
            if STOPPING:
                return
            layer, m, text = chosen[i]
            key = m.key(text)
            s0 = time.monotonic()
            why = []
            if key in equiv:
                r = ("equivalent", "")
            else:
                w = idle.get()
                try:
                    if w.pristine is None:
                        log("# worker %s: setting up its tree" % w.path)
                        if not w.set_up(lambda t: prepare(t, layers, env)):
                            with setup_lock:
                                STOPPING.append("setup")
                            return
                    r0, r1, why = test_mutant(w, layer, m, text,
                                              limit[layer], order[layer],
                                              env)
                    r = (r0, r1)
                finally:
                    idle.put(w)
            results[i] = r
            log("[%d/%d] %-12s %s:%d %s %s (%.1f s)%s" % (
                i + 1, len(chosen), r[0], m.path, m.line_no(text), m.op,
                r[1], time.monotonic() - s0,
                "; tree reset: " + " ".join(why[:5]) if why else ""))

        try:
            with ThreadPoolExecutor(max_workers=a.jobs) as ex:
                list(ex.map(job, range(len(chosen))))
        except KeyboardInterrupt:
            STOPPING.append(0)
        if "setup" in STOPPING:
            log("mutate: a worker's pristine tree fails, no report")
            return 1
        if STOPPING:
            log("mutate: interrupted, no report")
            return 130
        a.resets = sum(w.resets for w in trees)
    finally:
        for w in trees:
            kill_strays(w.path)
        shutil.rmtree(work, ignore_errors=True)

    return report(a, top, layers, chosen, results, equiv,
                  time.monotonic() - t0)


def report(a, top, layers, chosen, results, equiv, elapsed):
    kinds = ("killed", "timeout", "survived", "equivalent", "uncompilable")
    per_file, per_layer = {}, {}
    for (layer, m, _), (r, _) in zip(chosen, results):
        for tab, k in ((per_file, m.path), (per_layer, layer)):
            tab.setdefault(k, dict.fromkeys(kinds, 0))[r] += 1
    lines = ["# mutation testing: seed %s, sample %s, layers %s, %.0f s" % (
        a.seed, a.sample or "all", ",".join(layers), elapsed),
        "# score = (killed + timeout) / (killed + timeout + survived);",
        "# equivalent mutants (listed in %s) and ones that do not compile"
        % a.equivalents, "# are not counted.",
        "# repeat with: scripts/mutate.sh --seed %s%s --layer %s%s" % (
            a.seed, " --sample %d" % a.sample if a.sample else "",
            ",".join(layers), " --match '%s'" % a.match if a.match else ""),
        "# files of %s in no layer: %s" % (
            " and ".join(COVERED_DIRS), " ".join(a.unlayered) or "none"),
        "# worker trees reset after a timeout or a disturbed tree: %d"
        % a.resets, ""]

    def row(name, c):
        den = c["killed"] + c["timeout"] + c["survived"]
        score = 100.0 * (c["killed"] + c["timeout"]) / den if den else 100.0
        return ("%-40s killed %3d  timeout %2d  survived %3d  equivalent %2d"
                "  uncompilable %3d  score %5.1f %%" % (
                    name, c["killed"], c["timeout"], c["survived"],
                    c["equivalent"], c["uncompilable"], score))
    for f in sorted(per_file):
        lines.append(row(f, per_file[f]))
    lines.append("")
    total = dict.fromkeys(kinds, 0)
    for layer in layers:
        c = per_layer.get(layer, dict.fromkeys(kinds, 0))
        for k in kinds:
            total[k] += c[k]
        lines.append(row("layer " + layer, c))
    lines.append(row("all", total))
    lines.append("")
    for (layer, m, text), (r, _) in zip(chosen, results):
        if r != "survived":
            continue
        lines.append("## survived: %s:%d (%s, %s)" % (
            m.path, m.line_no(text), layer, m.op))
        lines.append("## key: " + m.key(text))
        before, after = m.lines(text)
        lines += [x.rstrip("\n") for x in difflib.unified_diff(
            [before + "\n"], [after + "\n"], "a/" + m.path, "b/" + m.path,
            lineterm="")][2:]
        lines.append("")
    # Stale entries can only be told from a run over every mutant of the
    # layers, and only for their files.
    seen = {m.key(t) for _, m, t in chosen}
    files = {f for x in layers for f in layer_files(top, x)}
    stale = [k for k in equiv if k not in seen and
             k.partition(": ")[0] in files]
    if stale and not a.sample and not a.match:
        lines.append("# equivalents file entries that match no mutant:")
        lines += ["#   " + k for k in stale]
    text = "\n".join(lines) + "\n"
    path = os.path.join(top, a.report)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    print(text, end="")
    print("# report written to %s" % a.report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
