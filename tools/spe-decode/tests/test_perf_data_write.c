// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf.data writer: the layout perf reads (perf.data-file-format.txt),
 * checked byte by byte on a file written to a temporary descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe_perf_data.h"
#include "support/temp_file.h"
#include "tap.h"

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static const uint64_t spe_id = 11, dummy_id = 12;

static struct spe_perf_writer *open_writer(int fd, const char *cpuid)
{
	struct spe_perf_writer_info info = {
		.arch = "aarch64", .cpuid = cpuid,
		.nr_cpus_avail = 4, .nr_cpus_online = 2,
	};
	struct perf_event_attr spe = {
		.type = 8, .config = 1, .sample_period = 4096,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER,
		.sample_id_all = 1,
	};
	struct perf_event_attr synth = {
		.type = PERF_TYPE_HARDWARE,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			       PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT |
			       PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR,
		.sample_id_all = 1,
	};
	struct spe_perf_writer *w;

	if (spe_perf_writer_create(&w, fd, &info))
		return NULL;
	if (spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &spe_id, 1) ||
	    spe_perf_writer_add_attr(w, &synth, "memory", &dummy_id, 1)) {
		spe_perf_writer_free(w);
		return NULL;
	}
	return w;
}

static void test_layout(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = open_writer(fd, "0x00000000413fd0c1");
	struct spe_perf_writer_sample_id sid = { .pid = 5, .tid = 6, .time = 77, .id = spe_id, .cpu = 3 };
	struct spe_time_conv tc = { .time_shift = 10, .time_mult = 500, .time_zero = 9,
				    .long_form = false };
	struct spe_perf_writer_sample s = {
		.misc = PERF_RECORD_MISC_USER, .id = dummy_id, .ip = 0x400000,
		.pid = 5, .tid = 6, .time = 1000, .addr = 0x7fff0000, .cpu = 3,
		.period = 1, .weight_var1 = 20, .weight_var2 = 5, .weight_var3 = 2,
		.data_src = 0x1234, .phys_addr = 0x80000000,
	};
	const unsigned char data[5] = { 0xb0, 1, 2, 3, 4 };
	struct spe_perf_file_header h;
	unsigned char *f, *p;
	size_t len;

	CHECK(w, "writer opens with two attributes");
	if (!w)
		return;
	CHECK(!spe_perf_writer_time_conv(w, &tc), "short TIME_CONV is written");
	CHECK(!spe_perf_writer_auxtrace_info_v1(w, 8, true), "AUXTRACE_INFO v1 is written");
	CHECK(!spe_perf_writer_auxtrace(w, data, sizeof(data), 0x40, 0x40, 2, 6, 3),
	      "AUXTRACE with 5 data bytes is written");
	CHECK(!spe_perf_writer_aux(w, 0x40, 5, PERF_AUX_FLAG_TRUNCATED, &sid), "AUX is written");
	CHECK(!spe_perf_writer_sample(w, &s), "a WEIGHT_STRUCT sample is written");
	CHECK(!spe_perf_writer_finish(w), "finish writes features and header");
	spe_perf_writer_free(w);

	f = test_slurp(fd, &len);
	memcpy(&h, f, sizeof(h));
	CHECK_EQ(h.magic, SPE_PERF_MAGIC2, "header starts with PERFILE2");
	CHECK_EQ(h.size, 104, "file header is 104 bytes");
	CHECK_EQ(h.attr_size, sizeof(struct perf_event_attr) + 16,
		 "attr entry is the attr plus its ids section");
	CHECK_EQ(h.attrs.size, 2 * h.attr_size, "two attr entries");
	CHECK_EQ(rd64(f + rd64(f + h.attrs.offset + sizeof(struct perf_event_attr))),
		 spe_id, "first attr's ids section holds its id");
	CHECK_EQ(rd32(f + h.attrs.offset + 4), sizeof(struct perf_event_attr),
		 "attr.size is set to the UAPI struct size");

	p = f + h.data.offset;
	CHECK_EQ(rd32(p), SPE_PERF_RECORD_TIME_CONV, "first record is TIME_CONV");
	CHECK_EQ(((struct perf_event_header *)p)->size, SPE_TIME_CONV_SHORT_SIZE,
		 "short TIME_CONV ends after time_zero");
	CHECK_EQ(rd64(p + 8), 10, "time_shift stored");
	p += SPE_TIME_CONV_SHORT_SIZE;
	CHECK_EQ(rd32(p), SPE_PERF_RECORD_AUXTRACE_INFO, "then AUXTRACE_INFO");
	CHECK_EQ(((struct perf_event_header *)p)->size, 32, "v1 info is 16 + 16 bytes");
	CHECK_EQ(rd32(p + 8), SPE_PERF_AUXTRACE_ARM_SPE, "auxtrace type 4 (ARM SPE)");
	CHECK_EQ(rd64(p + 16), 8, "priv[0] is the PMU type");
	CHECK_EQ(rd64(p + 24), 1, "priv[1] says per-CPU mmaps");
	p += 32;
	CHECK_EQ(rd32(p), SPE_PERF_RECORD_AUXTRACE, "then AUXTRACE");
	CHECK_EQ(rd64(p + 8), 8, "AUXTRACE size is rounded up to 8 bytes");
	CHECK_EQ(rd32(p + 32), 2, "AUXTRACE idx");
	CHECK_EQ(rd32(p + 40), 3, "AUXTRACE cpu");
	CHECK(!memcmp(p + 48, data, 5) && !p[53] && !p[54] && !p[55],
	      "AUXTRACE data follows the record, zero padded");
	p += 56;
	CHECK_EQ(rd32(p), PERF_RECORD_AUX, "then AUX");
	CHECK_EQ(((struct perf_event_header *)p)->size, 8 + 24 + 32,
		 "AUX carries a 32-byte sample_id (tid, time, cpu, identifier)");
	CHECK_EQ(rd64(p + 24), PERF_AUX_FLAG_TRUNCATED, "AUX flags");
	CHECK_EQ(rd64(p + 40), 77, "sample_id time");
	CHECK_EQ(rd32(p + 48), 3, "sample_id cpu");
	CHECK_EQ(rd64(p + 56), spe_id, "sample_id identifier is last");
	p += 64;
	CHECK_EQ(rd32(p), PERF_RECORD_SAMPLE, "then SAMPLE");
	CHECK_EQ(rd64(p + 8), dummy_id, "sample starts with the identifier");
	CHECK_EQ(rd64(p + 16), 0x400000, "then ip");
	CHECK_EQ(rd64(p + 32), 1000, "then time after pid/tid");
	CHECK_EQ(rd64(p + 40), 0x7fff0000, "then addr");
	CHECK_EQ(rd64(p + 56), 1, "then period after cpu");
	CHECK_EQ(rd32(p + 64), 20, "weight var1 is total latency");
	CHECK_EQ(p[68] | p[69] << 8, 5, "weight var2 is issue latency");
	CHECK_EQ(p[70] | p[71] << 8, 2, "weight var3 is translation latency");
	CHECK_EQ(rd64(p + 72), 0x1234, "then data_src");
	CHECK_EQ(rd64(p + 80), 0x80000000, "then phys_addr");
	CHECK_EQ(p + 88 - f, h.data.offset + h.data.size, "data section ends after the sample");

	/* Feature index right after the data, one section per set bit. */
	CHECK(h.features[0] & (1ULL << SPE_HEADER_ARCH), "ARCH feature bit set");
	CHECK(h.features[0] & (1ULL << SPE_HEADER_CPUID), "CPUID feature bit set");
	CHECK(!(h.features[0] & (1ULL << SPE_HEADER_HOSTNAME)), "absent hostname leaves its bit clear");
	{
		const unsigned char *idx = f + h.data.offset + h.data.size;
		/* ARCH, NRCPUS, CPUID, EVENT_DESC in bit order. */
		const unsigned char *arch = f + rd64(idx);
		const unsigned char *nrcpus = f + rd64(idx + 16);
		const unsigned char *cpuid = f + rd64(idx + 32);

		CHECK_EQ(rd32(arch), 64, "feature strings are padded to 64 bytes");
		CHECK(!strcmp((const char *)arch + 4, "aarch64"), "ARCH string");
		CHECK_EQ(rd64(idx + 24), 8, "NRCPUS is two u32");
		CHECK_EQ(rd32(nrcpus), 4, "nr_cpus_avail");
		CHECK(!strcmp((const char *)cpuid + 4, "0x00000000413fd0c1"), "CPUID string is the MIDR");
		/* then EVENT_DESC, then the AUXTRACE index, last. */
		const unsigned char *aux = f + rd64(idx + 64);

		CHECK_EQ(rd64(idx + 64) + rd64(idx + 72), len, "last feature ends the file");
		CHECK(h.features[0] & (1ULL << SPE_HEADER_AUXTRACE), "AUXTRACE index feature bit set");
		CHECK(rd64(aux) == 1 && rd32(f + rd64(aux + 8)) == SPE_PERF_RECORD_AUXTRACE &&
		      rd64(aux + 16) == 48,
		      "AUXTRACE index: one entry, the AUXTRACE record's offset and header size");
	}
	free(f);
	close(fd);
}

static void test_v2_info(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = open_writer(fd, NULL);
	struct spe_perf_writer_cpu_meta m[2] = {
		{ .cpu = 0, .midr = 0x410fd0c0, .pmu_type = 8, .min_interval = 1024, .event_filter = 0xff },
		{ .cpu = 1, .midr = 0x410fd490, .pmu_type = ~0ULL, .min_interval = 256 },
	};
	struct spe_perf_file_header h;
	unsigned char *f, *p;
	size_t len;

	CHECK(w && !spe_perf_writer_auxtrace_info_v2(w, 8, m, 2, SPE_AUXINFO_V2_NR_PARAMS) &&
	      !spe_perf_writer_auxtrace_info_v2(w, 8, m, 1, SPE_AUXINFO_V2_NR_PARAMS_OLD) &&
	      !spe_perf_writer_finish(w), "v2 AUXTRACE_INFO in both per-CPU layouts");
	spe_perf_writer_free(w);
	f = test_slurp(fd, &len);
	memcpy(&h, f, sizeof(h));
	p = f + h.data.offset;
	CHECK_EQ(((struct perf_event_header *)p)->size, 16 + 4 * 8 + 2 * 7 * 8,
		 "v2: header of 4 u64 then 7 u64 per CPU");
	CHECK_EQ(rd64(p + 16), 2, "v2 header: version 2");
	CHECK_EQ(rd64(p + 24), 4, "v2 header: header_size 4");
	CHECK_EQ(rd64(p + 40), 2, "v2 header: nr_cpus");
	CHECK_EQ(rd64(p + 48), SPE_AUXINFO_V2_CPU_MAGIC, "per-CPU block starts with the magic");
	CHECK_EQ(rd64(p + 64), 4, "per-CPU nr_params 4");
	CHECK_EQ(rd64(p + 72), 0x410fd0c0, "per-CPU MIDR");
	CHECK_EQ(rd64(p + 96), 0xff, "per-CPU event filter");
	CHECK_EQ(rd64(p + 48 + 56 + 32), ~0ULL, "second CPU: no SPE PMU");
	p += ((struct perf_event_header *)p)->size;
	CHECK_EQ(((struct perf_event_header *)p)->size, 16 + 4 * 8 + 6 * 8,
		 "2024 layout: 6 u64 per CPU without event_filter");
	CHECK(!(h.features[0] & (1ULL << SPE_HEADER_CPUID)), "no cpuid given: no CPUID section");
	free(f);
	close(fd);
}

static void test_misuse(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = open_writer(fd, NULL);
	struct spe_perf_writer_sample_id sid = { .id = 999 };
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_CALLCHAIN };

	CHECK_EQ(spe_perf_writer_add_attr(w, &a, "x", NULL, 0), SPE_ERR_UNSUPPORTED,
		 "a sample type the writer cannot lay out is refused");
	spe_perf_writer_free(w);

	w = open_writer(fd, NULL);
	CHECK_EQ(spe_perf_writer_aux(w, 0, 0, 0, &sid), SPE_ERR_NOT_FOUND,
		 "a sample_id naming no attribute's id is refused");
	CHECK_EQ(spe_perf_writer_finished_round(w), SPE_ERR_NOT_FOUND, "the first error sticks");
	spe_perf_writer_free(w);

	w = open_writer(fd, NULL);
	CHECK(!spe_perf_writer_finished_round(w), "a record starts the data section");
	a.sample_type = 0;
	CHECK_EQ(spe_perf_writer_add_attr(w, &a, "late", NULL, 0), SPE_ERR_INVAL,
		 "attributes cannot be added once data started");
	spe_perf_writer_free(w);

	w = open_writer(fd, NULL);
	CHECK(!spe_perf_writer_auxtrace_begin(w, 16, 0, 0, 0, 0, 0) &&
	      !spe_perf_writer_auxtrace_data(w, "12345678", 8), "AUXTRACE data in pieces");
	CHECK_EQ(spe_perf_writer_finished_round(w), SPE_ERR_INVAL,
		 "no record may start inside AUXTRACE data");
	spe_perf_writer_free(w);
	close(fd);
}

/* A full disk is SPE_ERR_IO, and the writer's message keeps the reason. */
static void test_write_error(void)
{
	int fd = open("/dev/full", O_WRONLY);
	struct spe_perf_writer *w;
	const char *msg;
	int err;

	if (fd < 0) {
		CHECK(0, "/dev/full opens for writing");
		return;
	}
	w = open_writer(fd, NULL);
	CHECK(w && !spe_perf_writer_errmsg(w), "a fresh writer has no error message");
	err = spe_perf_writer_finish(w);
	msg = spe_perf_writer_errmsg(w);
	CHECK_EQ(err, SPE_ERR_IO, "a write to a full disk fails with SPE_ERR_IO, not -errno");
	CHECK(msg && strstr(msg, strerror(ENOSPC)),
	      "spe_perf_writer_errmsg() names the system's reason (No space left on device)");
	CHECK_EQ(spe_perf_writer_finished_round(w), SPE_ERR_IO, "the I/O error sticks");
	spe_perf_writer_free(w);
	close(fd);
}

int main(void)
{
	test_layout();
	test_v2_info();
	test_misuse();
	test_write_error();
	return tap_done();
}
