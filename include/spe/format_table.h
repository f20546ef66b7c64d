/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SPE PMU's format attributes: the perf ABI of Linux perf-arm-spe.txt.
 * Never renumber; a name and its bits are what perf tools rely on.
 *
 * Included with SPE_FMT(name, config word, lo bit, hi bit, feature)
 * defined; the feature is the SPE_FEAT_* the hardware needs (0: always).
 * No include guard: it is expanded once per use.
 */
SPE_FMT(ts_enable,		config,	 0,  0, 0)
SPE_FMT(pa_enable,		config,	 1,  1, 0)
SPE_FMT(pct_enable,		config,	 2,  2, 0)
SPE_FMT(jitter,			config,	16, 16, 0)
SPE_FMT(branch_filter,		config,	32, 32, SPE_FEAT_FILT_TYP)
SPE_FMT(load_filter,		config,	33, 33, SPE_FEAT_FILT_TYP)
SPE_FMT(store_filter,		config,	34, 34, SPE_FEAT_FILT_TYP)
SPE_FMT(discard,		config,	35, 35, SPE_FEAT_DISCARD)
SPE_FMT(branch_filter_mask,	config,	36, 36, SPE_FEAT_EFT)
SPE_FMT(load_filter_mask,	config,	37, 37, SPE_FEAT_EFT)
SPE_FMT(store_filter_mask,	config,	38, 38, SPE_FEAT_EFT)
SPE_FMT(simd_filter,		config,	39, 39, SPE_FEAT_EFT)
SPE_FMT(simd_filter_mask,	config,	40, 40, SPE_FEAT_EFT)
SPE_FMT(float_filter,		config,	41, 41, SPE_FEAT_EFT)
SPE_FMT(float_filter_mask,	config,	42, 42, SPE_FEAT_EFT)
SPE_FMT(event_filter,		config1, 0, 63, SPE_FEAT_FILT_EVT)
SPE_FMT(min_latency,		config2, 0, 11, SPE_FEAT_FILT_LAT)
SPE_FMT(inv_event_filter,	config3, 0, 63, SPE_FEAT_INV_FILT_EVT)
SPE_FMT(inv_data_src_filter,	config4, 0, 63, SPE_FEAT_FDS)
