# Emit a golden-vector text of realistic SPE records (the mix a Neoverse-
# class core writes: loads, stores, branches, other instructions, each with
# PC, context, operation type, events, latencies, addresses, data source
# and a timestamp ending the record, padded to 64-byte record alignment).
#
#   awk -v records=N [-v seed=S] [-v end=1] -f realistic.awk | \
#       spe-decode encode -o trace.bin -
#
# end=1 ends records with an End packet instead of a Timestamp.
function hex32() { return sprintf("%08x", int(rand() * 4294967296)) }
function rec_bytes_pad(n) {
	# keep records 64-byte aligned as units with PMBIDR.Align = 6 do
	n = n % 64
	if (n) print "pad " (64 - n)
}
BEGIN {
	if (records == "") records = 1000
	srand(seed == "" ? 1 : seed)
	ts = 44731163950
	pid = 4242
	for (i = 0; i < records; i++) {
		kind = rand()
		el = rand() < 0.8 ? 0 : 1
		hi = el ? "ffff8000" : "0000aaaa"
		size = 0
		printf "pc 0x%s%s el=%d ns=1\n", hi, hex32(), el; size += 9
		if (rand() < 0.02) pid = 1000 + int(rand() * 30000)
		printf "ctx 0x%x\n", pid; size += 5
		if (kind < 0.35 || kind >= 0.95) {
			st = kind >= 0.95
			print (st ? "op st gp" : (rand() < 0.1 ? "op ld simd" : "op ld gp")); size += 2
			ev = "retired l1d-access tlb-access"
			r = rand()
			if (r < 0.2) ev = ev " l1d-refill"
			if (r < 0.08) ev = ev " llc-access"
			if (r < 0.03) ev = ev " llc-refill"
			if (r < 0.01) ev = ev " tlb-refill"
			print "ev " ev; size += 3
			printf "lat iss %d\n", int(rand() * 8); size += 3
			printf "lat tot %d\n", 4 + int(rand() * (r < 0.2 ? 300 : 20)); size += 3
			printf "va 0x0000ffff%s\n", hex32(); size += 9
			printf "lat xlat %d\n", int(rand() * 30); size += 3
			printf "pa 0x8%s ns=1\n", substr(hex32(), 2); size += 9
			printf "ds %d\n", r < 0.2 ? 8 + int(rand() * 7) : 0; size += 2
		} else if (kind < 0.6) {
			c = rand() < 0.6
			m = rand() < 0.05
			printf "op b%s\n", c ? " cond" : ""; size += 2
			printf "ev retired%s%s\n", m ? " mispred" : "", (c && rand() < 0.4) ? " not-taken" : ""; size += 3
			printf "lat iss %d\n", int(rand() * 4); size += 3
			printf "lat tot %d\n", 2 + int(rand() * 12); size += 3
			printf "tgt 0x%s%s el=%d ns=1\n", hi, hex32(), el; size += 9
		} else {
			print (rand() < 0.2 ? "op other cond" : "op other"); size += 2
			print "ev retired"; size += 3
			printf "lat iss %d\n", int(rand() * 4); size += 3
			printf "lat tot %d\n", 1 + int(rand() * 10); size += 3
		}
		ts += 100 + int(rand() * 5000)
		if (end) { print "end"; size += 1 } else { printf "ts %d\n", ts; size += 9 }
		rec_bytes_pad(size)
	}
}
