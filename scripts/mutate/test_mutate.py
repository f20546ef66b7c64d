# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the mutation tool (scripts/mutate.sh): what the generator
makes mutants of, that every library and CLI file is in a layer, and that
a sample's seed is printed and repeats the sample.  Prints TAP; suite 10
runs it.
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import mutants  # noqa: E402
import run  # noqa: E402

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


def main():
    for t in (test_compile_time_assertions, test_library_assertions,
              test_octal_constant, test_layers_cover_every_file, test_seed):
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
