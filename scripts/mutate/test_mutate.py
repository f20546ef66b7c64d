# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the mutation tool (scripts/mutate.sh): what the generator
makes mutants of, that every library and CLI file is in a layer, that a
sample's seed is printed and repeats the sample, and that a worker tree
(worker.py) runs its suites fastest first, rebuilds a mutated and a
restored file, and is reset when a mutant may have disturbed it.  Prints
TAP; suite 10 runs it.
"""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import mutants  # noqa: E402
import run  # noqa: E402
import worker  # noqa: E402

RESULTS = []


def check(ok, name, detail=""):
    RESULTS.append((bool(ok), name, detail))


def touched_lines(path, text):
    """Line numbers (1-based) some mutant of text changes."""
    out = set()
    for m in mutants.mutants_of(path, text):
        first = text.count("\n", 0, m.start) + 1
        last = text.count("\n", 0, max(m.start, m.end - 1)) + 1
        out.update(range(first, last + 1))
    return out


def lines_of(text, needle):
    return {i + 1 for i, line in enumerate(text.splitlines())
            if needle in line}


def test_compile_time_assertions():
    src = (
        "_Static_assert(A + 1 > 2 && B < 3,\n"
        "\t       \"a message\");\n"
        "static_assert(sizeof(x) == 4, \"four\");\n"
        "int f(int a)\n"
        "{\n"
        "\tBUILD_BUG_ON(N > 8);\n"
        "\tBUILD_BUG_ON_MSG(N & 1,\n"
        "\t\t\t \"even\");\n"
        "\treturn a + 1;\n"
        "}\n")
    lines = touched_lines("t.c", src)
    check(not lines & {1, 2}, "no mutant of a _Static_assert (over two lines)",
          "lines %s" % sorted(lines))
    check(3 not in lines, "no mutant of a static_assert")
    check(not lines & {6, 7, 8}, "no mutant of BUILD_BUG_ON or BUILD_BUG_ON_MSG")
    check(9 in lines, "the code after the assertions is still mutated")
    # The same words in a comment or string mask nothing.
    src = ("/* _Static_assert( */ int a = b + 1;\n"
           "const char *s = \"static_assert(\"; int c = d + 1;\n")
    lines = touched_lines("t.c", src)
    check(lines == {1, 2}, "an assertion's name in a comment or a string "
          "masks nothing", "lines %s" % sorted(lines))


def test_library_assertions():
    """The decoder's own compile-time assertions (packet.c, record.c and
    any other layer file that has one) give no mutant."""
    seen = 0
    for layer in run.LAYERS:
        for path in run.layer_files(TOP, layer):
            with open(os.path.join(TOP, path)) as f:
                text = f.read()
            starts = lines_of(text, "_Static_assert(") | \
                lines_of(text, "static_assert(") | \
                lines_of(text, "BUILD_BUG_ON")
            if not starts:
                continue
            seen += len(starts)
            hit = touched_lines(path, text) & starts
            check(not hit, "%s: no mutant of its compile-time assertions"
                  % path, "lines %s" % sorted(hit))
    check(seen >= 2, "the layers' files have compile-time assertions to "
          "check (packet.c, record.c)", "found %d" % seen)


def test_octal_constant():
    reps = sorted(m.repl for m in mutants.mutants_of(
        "t.c", "int f(void)\n{\n\treturn umask(022);\n}\n")
        if m.op == "const")
    check(reps == ["021", "023"], "an octal constant is mutated in octal",
          "got %s" % reps)


def test_layers_cover_every_file():
    missing = run.unlayered(TOP)
    check(not missing, "every .c file of lib/, views/ and cli/ is in a layer",
          "in no layer: %s" % " ".join(missing))
    # A file no layer names is reported.
    with tempfile.TemporaryDirectory() as d:
        for sub in run.COVERED_DIRS:
            os.makedirs(os.path.join(d, sub))
        for layer in run.LAYERS:
            for path in run.layer_files(TOP, layer):
                if path.startswith(run.COVERED_DIRS):
                    open(os.path.join(d, path), "w").close()
        open(os.path.join(d, run.DEC, "brand_new.c"), "w").close()
        got = run.unlayered(d)
    check(got == [run.DEC + "brand_new.c"],
          "a new library file in no layer is reported", "got %s" % got)
    names = {}
    for layer, (_, _, suites) in run.LAYERS.items():
        for path in run.layer_files(TOP, layer):
            names.setdefault(path, []).append(layer)
            check(os.path.exists(os.path.join(TOP, path)),
                  "layer %s: %s exists" % (layer, path))
        for s in suites:
            check(os.path.exists(os.path.join(TOP, "scripts", "suites",
                                              s + ".sh")),
                  "layer %s: suite %s exists" % (layer, s))
    twice = {p: ls for p, ls in names.items() if len(ls) > 1}
    check(not twice, "no file is in two layers", str(twice))


def listing(*args):
    p = subprocess.run([sys.executable, os.path.join(HERE, "run.py"),
                        "--list"] + list(args), cwd=TOP,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def test_seed():
    rc, out, err = listing("--layer", "packet,record", "--sample", "20")
    seed = None
    for line in err.splitlines():
        if line.startswith("# seed "):
            seed = line.split()[2]
    check(rc == 0 and seed, "without --seed a sample prints the seed it "
          "chose", err)
    if not seed:
        return
    rc2, again, _ = listing("--layer", "packet,record", "--sample", "20",
                            "--seed", seed)
    check(rc2 == 0 and again == out and len(out.splitlines()) == 20,
          "--seed with the printed seed repeats the sample")
    other = set()
    for _ in range(3):
        other.add(listing("--layer", "packet,record", "--sample", "20")[1])
    check(len(other | {out}) > 1, "samples without --seed are not all the "
          "same")


def test_suite_order():
    got = worker.suite_order(["a", "b", "c", "d"],
                             {"a": 30.0, "b": 2.5, "c": 9.0, "d": 2.5})
    check(got == ["b", "d", "c", "a"], "suites run fastest first, equal "
          "times in the listed order", "got %s" % got)
    got = worker.suite_order(["a", "b", "c"], {"c": 1.0})
    check(got == ["c", "a", "b"], "a suite without a pristine time runs "
          "last", "got %s" % got)


def test_reset_decisions():
    before = {"a.c": ("f", 10, 1), "d": ("d",), "l": ("l", "a.c")}
    check(worker.tree_changes(before, dict(before)) == [],
          "an unchanged tree has no changes")
    after = dict(before, **{"a.c": ("f", 10, 2), "tmp.x": ("d",)})
    del after["l"]
    got = worker.tree_changes(before, after)
    check(got == ["a.c", "l", "tmp.x"], "a changed, a removed and a new "
          "path are changes", "got %s" % got)
    check(not worker.must_reset(False, [], True),
          "a mutant judged in time, tree as before: no reset")
    check(worker.must_reset(True, [], True), "a timeout resets the tree")
    check(worker.must_reset(False, ["tmp.x"], True),
          "a file left outside build/ resets the tree")
    check(worker.must_reset(False, [], False),
          "a source not written back with a fresh mtime resets the tree")
    check(worker.fresh_stamp(100, 50) == 100 and
          worker.fresh_stamp(100, 100) == 101,
          "a rewritten source's mtime is now, past every build output")
    check(worker.fresh_stamp(100, 200) is None,
          "no mtime for a source when a build output is in the future")


TINY_MAKEFILE = """O := $(CURDIR)/build
$(O)/prog: $(O)/main.o
	$(CC) -o $@ $^
$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) -MMD -MP -c -o $@ $<
-include $(wildcard $(O)/*.d)
"""


def test_worker_tree():
    """A tiny tree built the projects' way (-MMD dependency files with
    absolute paths): a mutant of a header and of a source is rebuilt, the
    restored text is rebuilt too, even when an object's mtime is past
    the clock, and a disturbed tree is reset."""
    with tempfile.TemporaryDirectory() as d:
        base = os.path.join(d, "base")
        os.makedirs(base)
        files = {"Makefile": TINY_MAKEFILE,
                 "value.h": "#define VALUE 7\n",
                 "main.c": '#include <stdio.h>\n#include "value.h"\n'
                           'int main(void) { printf("%d\\n", VALUE + 1); '
                           'return 0; }\n'}
        for name, text in files.items():
            with open(os.path.join(base, name), "w") as f:
                f.write(text)

        def make(tree):
            return subprocess.run(["make", "-s", "-C", tree],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode == 0

        def output(tree):
            if not make(tree):
                return "build failed"
            return subprocess.run([os.path.join(tree, "build", "prog")],
                                  stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout.strip()

        w = worker.WorkerTree(base, os.path.join(d, "w0"))
        check(w.set_up(make) and output(w.path) == "8",
              "worker tree: built once from the pristine sources")
        w.put("value.h", "#define VALUE 8\n")
        check(output(w.path) == "9", "worker tree: a mutated header is "
              "rebuilt into the program")
        check(w.give_back("value.h", files["value.h"], False) == [] and
              output(w.path) == "8", "worker tree: the header's restored "
              "text is rebuilt, no reset needed")
        w.put("main.c", files["main.c"].replace("VALUE + 1", "VALUE - 1"))
        check(output(w.path) == "6", "worker tree: a mutated source is "
              "rebuilt")
        check(w.give_back("main.c", files["main.c"], False) == [] and
              output(w.path) == "8", "worker tree: the source's restored "
              "text is rebuilt, no reset needed")
        # Build output stamped past the clock (a clock set back): make
        # would recompile the object but not relink the program.
        w.put("main.c", files["main.c"].replace("VALUE + 1", "VALUE + 2"))
        check(output(w.path) == "9", "worker tree: a second mutant of the "
              "same source is rebuilt")
        future = time.time_ns() + 60 * 10**9
        for name in ("main.o", "prog"):
            os.utime(os.path.join(w.path, "build", name), ns=(future, future))
        why = w.give_back("main.c", files["main.c"], False)
        check(why and w.resets == 1 and output(w.path) == "8",
              "worker tree: build output from the future resets the tree",
              "reasons %s, resets %d" % (why, w.resets))
        open(os.path.join(w.path, "left-behind.tmp"), "w").close()
        why = w.give_back("main.c", files["main.c"], False)
        check(why == ["left-behind.tmp"] and w.resets == 2 and
              not os.path.exists(os.path.join(w.path, "left-behind.tmp")),
              "worker tree: a file a suite left behind resets the tree",
              "reasons %s, resets %d" % (why, w.resets))
        check(os.path.exists(os.path.join(w.path, "build", "prog")),
              "worker tree: a reset tree is the built one, not rebuilt "
              "from scratch")
        w.put("value.h", "#define VALUE 1\n")
        check(output(w.path) == "2", "worker tree: after a reset, a mutant "
              "is rebuilt again")
        why = w.give_back("value.h", files["value.h"], True)
        check(why and w.resets == 3 and output(w.path) == "8",
              "worker tree: a timeout resets the tree to the pristine build")


def main():
    for t in (test_compile_time_assertions, test_library_assertions,
              test_octal_constant, test_layers_cover_every_file, test_seed,
              test_suite_order, test_reset_decisions, test_worker_tree):
        try:
            t()
        except Exception as e:  # a crash is a failure, named
            check(False, "%s ran" % t.__name__, repr(e))
    print("1..%d" % len(RESULTS))
    failed = 0
    for i, (ok, name, detail) in enumerate(RESULTS, 1):
        print("%sok %d - %s" % ("" if ok else "not ", i, name))
        if not ok:
            failed += 1
            for line in str(detail).splitlines():
                print("# " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
