// SPDX-License-Identifier: GPL-2.0
/*
 * SPE user ABI: the format table, event validation and the conversion of
 * perf_event_attr config words into SPE register values.
 */
#include "spe_format.h"

#define SPE_FMT(_name, _word, _lo, _hi, _feat)				\
	[SPE_FMT_##_name] = {						\
		.name = #_name,						\
		.word = SPE_CFG_WORD_##_word,				\
		.lo = _lo,						\
		.hi = _hi,						\
		.feature = _feat,					\
	},

const struct spe_format_field spe_format_fields[SPE_NR_FMT] = {
#include "spe/format_table.h"
};

#undef SPE_FMT

const char *spe_cfg_word_name(unsigned int word)
{
	static const char * const names[SPE_NR_CFG_WORDS] = {
		"config", "config1", "config2", "config3", "config4",
	};

	return word < SPE_NR_CFG_WORDS ? names[word] : "?";
}

static u64 spe_fmt_mask(const struct spe_format_field *f)
{
	return SPE_GENMASK(f->hi, f->lo);
}

u64 spe_fmt_get(const u64 *config, enum spe_fmt_id id)
{
	const struct spe_format_field *f = &spe_format_fields[id];

	return (config[f->word] & spe_fmt_mask(f)) >> f->lo;
}

/* Attribute usable: the hardware has the feature, the kernel has the word. */
bool spe_fmt_supported(const struct spe_caps *caps, unsigned int nr_cfg_words,
		       enum spe_fmt_id id)
{
	const struct spe_format_field *f = &spe_format_fields[id];

	if (f->word >= nr_cfg_words)
		return false;
	return (caps->features & f->feature) == f->feature;
}

/*
 * PMSIRR_EL1.INTERVAL holds bits 31:8 of the interval (DDI 0586A §4.3.12):
 * round the period down to a multiple of 256 and keep it within
 * [PMSIDR.Interval minimum, 2^32 - 256].
 */
u64 spe_period_to_interval(const struct spe_caps *caps, u64 period)
{
	u64 max = SPE_PMSIRR_INTERVAL_MASK;

	if (period < caps->min_interval)
		return caps->min_interval & max;
	if (period > max)
		return max;
	return period & max;
}

/* Bits of each config word claimed by some format attribute. */
static u64 spe_cfg_known_bits(unsigned int word)
{
	u64 known = 0;
	unsigned int i;

	for (i = 0; i < SPE_NR_FMT; i++)
		if (spe_format_fields[i].word == word)
			known |= spe_fmt_mask(&spe_format_fields[i]);
	return known;
}

/*
 * The checks of the Linux SPE PMU ABI, in the order that gives the most useful
 * error: ABI misuse (-EINVAL), then what the hardware lacks
 * (-EOPNOTSUPP), then permission (-EACCES).  *why names the reason.
 */
int spe_event_validate(const struct spe_caps *caps,
		       const struct spe_event_req *req, const char **why)
{
	unsigned int w, i;
	const char *dummy;

	if (!why)
		why = &dummy;

	/*
	 * Frequency mode cannot work: the samples sit in a buffer, so perf
	 * cannot count them as they happen to adjust the period.
	 */
	if (req->freq) {
		*why = "frequency mode (-F) is not supported, give a period (-c)";
		return -EINVAL;
	}
	if (req->exclude_user && req->exclude_kernel) {
		*why = "excluding both user and kernel leaves nothing to sample";
		return -EINVAL;
	}
	for (w = 0; w < SPE_NR_CFG_WORDS; w++) {
		if (w >= req->nr_cfg_words && req->config[w]) {
			*why = "config word not supported by this kernel";
			return -EINVAL;
		}
		if (req->config[w] & ~spe_cfg_known_bits(w)) {
			*why = "reserved config bits set";
			return -EINVAL;
		}
	}
	if (req->exclude_idle) {
		*why = "exclude_idle is not supported";
		return -EOPNOTSUPP;
	}
	for (i = 0; i < SPE_NR_FMT; i++) {
		if (!spe_fmt_get(req->config, (enum spe_fmt_id)i))
			continue;
		if (!spe_fmt_supported(caps, req->nr_cfg_words,
				       (enum spe_fmt_id)i)) {
			*why = spe_format_fields[i].name;
			return -EOPNOTSUPP;
		}
	}
	if (spe_fmt_get(req->config, SPE_FMT_event_filter) & ~caps->evfr_mask) {
		*why = "event_filter bits not implemented (see caps/event_filter)";
		return -EOPNOTSUPP;
	}
	if (spe_fmt_get(req->config, SPE_FMT_inv_event_filter) &
	    ~caps->nevfr_mask) {
		*why = "inv_event_filter bits not implemented";
		return -EOPNOTSUPP;
	}
	/*
	 * min_latency needs no range check against the latency counter: the
	 * format field is 12 bits (config2:0-11) and the smallest counter is
	 * 12 bits (PMSIDR_EL1.CountSize, DDI 0487 D18.3), so every value the
	 * field can hold fits; a wider value sets config2 bit 12 and is
	 * refused above as a reserved bit.
	 */
	/* Physical addresses and time leak kernel information. */
	if ((spe_fmt_get(req->config, SPE_FMT_pa_enable) ||
	     spe_fmt_get(req->config, SPE_FMT_pct_enable)) &&
	    !req->kernel_allowed) {
		*why = "pa_enable/pct_enable need permission to profile the kernel";
		return -EACCES;
	}
	*why = NULL;
	return 0;
}

static u64 spe_bit_if(u64 bit, u64 cond)
{
	return cond ? bit : 0;
}

void spe_event_to_regs(const struct spe_caps *caps,
		       const struct spe_event_req *req,
		       struct spe_event_regs *regs)
{
	const u64 *cfg = req->config;
	u64 evfr = spe_fmt_get(cfg, SPE_FMT_event_filter);
	u64 nevfr = spe_fmt_get(cfg, SPE_FMT_inv_event_filter);
	u64 dsfr = spe_fmt_get(cfg, SPE_FMT_inv_data_src_filter);
	u64 lat = spe_fmt_get(cfg, SPE_FMT_min_latency);
	u64 fcr = 0;

	/* DDI 0586A §4.3.5 */
	regs->pmscr = spe_bit_if(SPE_PMSCR_TS, spe_fmt_get(cfg, SPE_FMT_ts_enable)) |
		      spe_bit_if(SPE_PMSCR_PA, spe_fmt_get(cfg, SPE_FMT_pa_enable)) |
		      spe_bit_if(SPE_PMSCR_E0SPE, !req->exclude_user) |
		      spe_bit_if(SPE_PMSCR_E1SPE, !req->exclude_kernel) |
		      spe_bit_if(SPE_PMSCR_CX, req->cx_allowed);
	if (spe_fmt_get(cfg, SPE_FMT_pct_enable))
		regs->pmscr |= SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK,
					      SPE_PMSCR_PCT_PHYS);

	/* DDI 0586A §4.3.12 */
	regs->pmsirr = spe_period_to_interval(caps, req->period) |
		       spe_bit_if(SPE_PMSIRR_RND, spe_fmt_get(cfg, SPE_FMT_jitter));

	/* DDI 0586A §4.3.9; DDI 0487 for FnE, FDS and the EFT fields */
	fcr |= spe_bit_if(SPE_PMSFCR_B, spe_fmt_get(cfg, SPE_FMT_branch_filter));
	fcr |= spe_bit_if(SPE_PMSFCR_LD, spe_fmt_get(cfg, SPE_FMT_load_filter));
	fcr |= spe_bit_if(SPE_PMSFCR_ST, spe_fmt_get(cfg, SPE_FMT_store_filter));
	fcr |= spe_bit_if(SPE_PMSFCR_SIMD, spe_fmt_get(cfg, SPE_FMT_simd_filter));
	fcr |= spe_bit_if(SPE_PMSFCR_FP, spe_fmt_get(cfg, SPE_FMT_float_filter));
	fcr |= spe_bit_if(SPE_PMSFCR_BM, spe_fmt_get(cfg, SPE_FMT_branch_filter_mask));
	fcr |= spe_bit_if(SPE_PMSFCR_LDM, spe_fmt_get(cfg, SPE_FMT_load_filter_mask));
	fcr |= spe_bit_if(SPE_PMSFCR_STM, spe_fmt_get(cfg, SPE_FMT_store_filter_mask));
	fcr |= spe_bit_if(SPE_PMSFCR_SIMDM, spe_fmt_get(cfg, SPE_FMT_simd_filter_mask));
	fcr |= spe_bit_if(SPE_PMSFCR_FPM, spe_fmt_get(cfg, SPE_FMT_float_filter_mask));
	/* Any type condition needs the type filter switched on as a whole. */
	fcr |= spe_bit_if(SPE_PMSFCR_FT, fcr);
	fcr |= spe_bit_if(SPE_PMSFCR_FE, evfr);
	fcr |= spe_bit_if(SPE_PMSFCR_FNE, nevfr);
	fcr |= spe_bit_if(SPE_PMSFCR_FL, lat);
	fcr |= spe_bit_if(SPE_PMSFCR_FDS, dsfr);
	regs->pmsfcr = fcr;

	regs->pmsevfr = evfr;
	regs->pmsnevfr = nevfr;
	regs->pmslatfr = SPE_FIELD_PREP(SPE_PMSLATFR_MINLAT_MASK, lat);
	/* The ABI names the data sources to drop; PMSDSFR keeps set bits. */
	regs->pmsdsfr = dsfr ? ~dsfr : 0;
	regs->pmblimitr_fm = spe_fmt_get(cfg, SPE_FMT_discard) ?
		SPE_FIELD_PREP(SPE_PMBLIMITR_FM_MASK, SPE_PMBLIMITR_FM_DISCARD) :
		SPE_FIELD_PREP(SPE_PMBLIMITR_FM_MASK, SPE_PMBLIMITR_FM_FILL);
}
