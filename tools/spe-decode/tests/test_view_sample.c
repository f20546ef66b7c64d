// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the views read off one sample (views/view_sample.c): the data-source
 * classes c2c and the HTML report count, from the perf_mem_data_src values
 * the decoder writes for each source (test_data_source.c checks those);
 * the page, and its name, that an address without a symbol is counted in.
 */
#include <linux/perf_event.h>
#include <string.h>

#include "spe/packet.h"
#include "spe_data_source.h"
#include "spe_views.h"
#include "tap.h"

static enum spe_view_ds class_of(int source)
{
	struct spe_ds_input in = { .is_load = true, .has_source = true,
				   .source = (uint16_t)source };

	return spe_view_ds_class(spe_perf_data_src(SPE_DS_TABLE_COMMON, &in));
}

/* The page and name of addr without a symbol, as the views count it. */
static void unresolved(void)
{
	struct spe_sym in_file = { .dso = "/usr/lib/libx.so", .name = "[unknown]",
				   .elf_addr = 0x12345 };
	struct spe_sym none = { .dso = "[unknown]", .name = "[unknown]",
				.elf_addr = 0x7f0000401abc };
	struct spe_sym kernel = { .dso = "[kernel.kallsyms]", .name = "[unknown]",
				  .elf_addr = 0xffff800008001234 };
	enum spe_view_unresolved u = SPE_VIEW_UNRESOLVED_ADDRESS;
	char name[128];
	bool in_dso = false;

	CHECK_EQ(spe_view_unresolved_page(&in_file, 0x7f0000012345, PERF_RECORD_MISC_USER,
					  &in_dso), 0x12000,
		 "in a file: the page of the address in the file (elf_addr), not the ip's");
	CHECK(in_dso, "in a file: said so");
	spe_view_unresolved_name(&in_file, 0x7f0000012345, PERF_RECORD_MISC_USER, name,
				 sizeof(name));
	CHECK(!strcmp(name, "unknown-page@/usr/lib/libx.so+0x12000"), "in a file: its name");
	CHECK_EQ(spe_view_unresolved_page(&none, 0x7f0000401abc, PERF_RECORD_MISC_USER,
					  &in_dso), 0x7f0000401000,
		 "outside the mappings: the page of the ip");
	CHECK(!in_dso, "outside the mappings: not in a file");
	spe_view_unresolved_name(&none, 0x7f0000401abc, PERF_RECORD_MISC_USER, name,
				 sizeof(name));
	CHECK(!strcmp(name, "unknown-page@0x7f0000401000"), "outside the mappings: its name");
	spe_view_unresolved_name(&kernel, 0xffff800008001234, PERF_RECORD_MISC_KERNEL, name,
				 sizeof(name));
	CHECK(!strcmp(name, "unknown-page@0xffff800008001000"),
	      "the kernel's: the page of the address itself");
	spe_view_unresolved_page(&kernel, 0xffff800008001234, PERF_RECORD_MISC_KERNEL, &in_dso);
	CHECK(!in_dso, "the kernel's: not in a file");
	spe_view_unresolved_name(&in_file, 0x7f0000012345, PERF_RECORD_MISC_USER, name, 20);
	CHECK(strlen(name) == 19, "a name too long for the buffer is cut, NUL-terminated");
	CHECK(spe_view_unresolved_parse("page", &u) && u == SPE_VIEW_UNRESOLVED_PAGE,
	      "--unresolved page");
	CHECK(spe_view_unresolved_parse("address", &u) && u == SPE_VIEW_UNRESOLVED_ADDRESS,
	      "--unresolved address");
	CHECK(!spe_view_unresolved_parse("addresses", &u) && !spe_view_unresolved_parse("", &u) &&
	      u == SPE_VIEW_UNRESOLVED_ADDRESS, "anything else is refused, the value unchanged");
}

int main(void)
{
	union perf_mem_data_src d = { .val = 0 };

	CHECK_EQ(spe_view_ds_class(0), SPE_VIEW_DS_NA, "no data_src: N/A");
	CHECK_EQ(class_of(SPE_DS_COMMON_L1D), SPE_VIEW_DS_L1, "L1D hit: L1");
	CHECK_EQ(class_of(SPE_DS_COMMON_L2), SPE_VIEW_DS_L2, "L2 hit: L2");
	CHECK_EQ(class_of(SPE_DS_COMMON_PEER_CORE), SPE_VIEW_DS_PEER,
		 "a peer core's L2: peer, not L2 (the transfer is what c2c counts)");
	CHECK_EQ(class_of(SPE_DS_COMMON_PEER_CLUSTER), SPE_VIEW_DS_PEER,
		 "a peer cluster's L3: peer, not LLC");
	CHECK_EQ(class_of(SPE_DS_COMMON_SYS_CACHE), SPE_VIEW_DS_LLC, "system cache: LLC");
	CHECK_EQ(class_of(SPE_DS_COMMON_DRAM), SPE_VIEW_DS_DRAM, "local DRAM");
	CHECK_EQ(class_of(SPE_DS_COMMON_REMOTE), SPE_VIEW_DS_REMOTE,
		 "remote: remote even though perf marks it a peer transfer");
	d.mem_lvl_num = PERF_MEM_LVLNUM_L4;
	d.mem_lvl = PERF_MEM_LVL_HIT;
	CHECK_EQ(spe_view_ds_class(d.val), SPE_VIEW_DS_LLC, "an L4 hit counts as last level");
	d.mem_lvl_num = PERF_MEM_LVLNUM_PMEM;
	CHECK_EQ(spe_view_ds_class(d.val), SPE_VIEW_DS_NA, "a level no class has: N/A");
	unresolved();
	return tap_done();
}
