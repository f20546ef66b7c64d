#!/usr/bin/env bash
# Mutation testing of the C layers: does each layer's test suite catch
# small bugs put into its code?  Not part of `make check` (it takes minutes
# to hours); `make mutate` runs it with the defaults below.
#
# Usage: scripts/mutate.sh [--layer L[,L...]] [--sample N] [--seed S]
#                          [--jobs J] [--timeout SEC] [--match RE] [--list]
#
#   --layer    one or more of the layers below (default: all of them)
#   --sample   test N mutants in all, spread evenly over the layers
#              (default: every mutant)
#   --seed     the sample's seed: the same seed picks the same mutants.
#              Without it a random seed is chosen and printed, first in
#              the output and in the report with the command that
#              repeats the run, so a sample is not always the same one
#              and any run can be repeated.
#   --jobs     mutants tested at once, each in its own worker tree
#              (default 2)
#   --timeout  seconds per mutant, build and suites (default: 3x the
#              pristine build and suites, at least 60)
#   --match    only the selected mutants whose "file: before => after"
#              key matches the regular expression (to re-check survivors)
#   --list     print the selected mutants and stop
#
# Layers (scripts/mutate/run.py LAYERS: files, build, owning suites):
#   packet, record  the decoder: lib/packet.c, lib/record.c
#   dump       perf report -D text: packet_print.c, dump.c, sink_printf.c
#   perfdata   reading perf.data: session, AUX queues and windows, samples
#   writer     writing perf.data: perf_data_write.c, sample_time.c
#   symbols    symbols.c, symtab.c, sym_store.c, dso_load.c,
#              plt_symbols.c, demangle.c
#   workers    decode_workers.c
#   views      report.c, and views/: view_sample.c, latency_counts.c,
#              keyed_rows.c, cost_table.c, c2c.c, srcline.c, html_report.c
#   support    error.c, grow.c, version.c, views/str_arena.c, views/vector.c
#   cli        every .c file of tools/spe-decode/cli/
#   driver     the driver files the host driver tests compile
#   model      drivers/perf/sim/spe_spu_model.c
# Every .c file of tools/spe-decode/lib/, views/ and cli/ is in a layer; each run
# prints those that are not (suite 10's test_mutate.py fails on any).
#
# Each mutant is one change (operator swap, constant +-1, shift or mask
# change, deleted condition, swapped arguments), never in the working
# files; never in a comment, a string, a preprocessor line or a
# compile-time assertion (_Static_assert, static_assert, BUILD_BUG_ON*),
# which generates no code.  Each worker (--jobs) copies the tree once,
# builds it and runs the layers' suites there (a red tree is refused; the
# first worker runs them twice, the second time to measure each suite).
# A mutant is then written into a worker's tree, the layer rebuilt
# incrementally (make, -MMD dependency files) and its suites run, fastest
# first by that measure: "killed" when one fails, "survived" when all
# pass, "timeout" past the limit; mutants that do not compile are counted
# apart.  The original text is written back with a fresh mtime, so the
# next build recompiles it; after a timeout, or when a file outside
# build/ differs from the pristine tree, the worker's tree is replaced by
# the copy of it taken once built (scripts/mutate/worker.py).  The report
# (build/mutate/report.txt) gives the counts and score per file and layer
# and every survivor as a diff.  Mutants that cannot change behaviour are
# listed, each with its reason, in scripts/mutate-equivalent.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec nice -n 10 python3 "$top/scripts/mutate/run.py" "$@"
