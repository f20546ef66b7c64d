# Compare `spe-decode dump` with the packet lines of `perf report -D` on the
# same bytes.  Usage: awk -f perf-dump-diff.awk MINE PERF
#
# Every line of ours that describes a packet perf 6.1 understands must be
# identical to perf's line at the same offset.  Where we decode what perf
# calls "Bad packet!" (unknown-but-sized packets, Alignment, a truncated
# tail), perf steps byte by byte and may lose packet sync: from there until
# both outputs meet again at a common offset with identical lines, perf's
# lines are not compared, and neither are ours.  Prints each mismatch and
# a summary; exits 1 on any mismatch.
function ours_only(d) {
	return d ~ /^(UNKNOWN|ALIGN|\(alignment bytes\)|TRUNCATED)/
}
# The description starts after the 16 byte columns and one space.
function desc(line) { return substr(line, index(line, ":") + 51) }
# Offsets as "x" + zero-padded hex: equal width, so string order is
# numeric order (and no gawk extensions are needed).
function offset(line,  h) {
	h = substr(line, 4, index(line, ":") - 4)
	while (length(h) < 16) h = "0" h
	return "x" h
}
FNR == NR {
	n_mine++
	mo[n_mine] = offset($0); ml[n_mine] = $0
	next
}
{
	o = offset($0)
	pl[o] = $0
	n_perf++; po[n_perf] = o
}
END {
	bad = 0; desync = 0; compared = 0
	for (i = 1; i <= n_mine; i++) {
		o = mo[i]; d = desc(ml[i])
		if (ours_only(d)) {
			desync = 1; dsy[i] = 1
			continue
		}
		if (o in pl) {
			if (pl[o] != ml[i]) {
				if (bad++ < 20)
					printf("# mismatch at %s:\n#  perf: %s\n#  ours: %s\n", o, pl[o], ml[i])
			} else {
				compared++
			}
			desync = 0
		} else if (!desync) {
			if (bad++ < 20)
				printf("# perf has no packet at %s where we print: %s\n", o, ml[i])
		}
		dsy[i] = desync
		seen[o] = 1
	}
	# perf lines at offsets we do not print must lie in a desync region.
	j = 1
	for (k = 1; k <= n_perf; k++) {
		o = po[k]
		if (o in seen) continue
		while (j < n_mine && mo[j + 1] <= o) j++
		if (n_mine && mo[j] <= o && dsy[j]) continue
		if (bad++ < 20)
			printf("# we print no packet at %s where perf prints: %s\n", o, pl[o])
	}
	printf("# %d of our %d lines identical to perf's, %d mismatches\n", compared, n_mine, bad)
	exit bad ? 1 : 0
}
