// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the views read off one sample (lib/view_sample.c): the data-source
 * classes c2c and the HTML report count, from the perf_mem_data_src values
 * the decoder writes for each source (test_data_source.c checks those).
 */
#include <linux/perf_event.h>

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
	return tap_done();
}
