#!/usr/bin/env bash
# Mutation testing of the C layers: does each layer's test suite catch
# small bugs put into its code?  Not part of `make check` (it takes minutes
# to hours); `make mutate` runs it with the defaults below.
#
# Usage: scripts/mutate.sh [--layer L[,L...]] [--sample N] [--seed S]
#                          [--jobs J] [--timeout SEC] [--match RE] [--list]
#
#   --layer    packet, record, perfdata, driver, model (default: all five)
#   --sample   test N mutants in all, spread evenly over the layers
#              (default: every mutant); the same seed picks the same ones
#   --jobs     mutants tested at once (default 2)
#   --match    only the selected mutants whose "file: before => after"
#              key matches the regular expression (to re-check survivors)
#   --list     print the selected mutants and stop
#
# Each mutant is one change (operator swap, constant +-1, shift or mask
# change, deleted condition, swapped arguments) in a private copy of the
# tree, never in the working files.  The layer's suites run against it:
# "killed" when one fails, "survived" when all pass, "timeout" past the
# limit; mutants that do not compile are counted apart.  The report
# (build/mutate/report.txt) gives the counts and score per file and layer
# and every survivor as a diff.  Mutants that cannot change behaviour are
# listed, each with its reason, in scripts/mutate-equivalent.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec nice -n 10 python3 "$top/scripts/mutate/run.py" "$@"
