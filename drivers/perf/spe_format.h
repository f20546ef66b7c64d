/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user ABI of the SPE PMU (Linux perf-arm-spe.txt): one table of format
 * attributes (spe/format_table.h), from which the enum, the sysfs format/
 * files, the config-bit extraction and the feature each attribute needs
 * are all generated, and the conversion of a validated event into
 * register values.
 *
 * Portable, like spe_caps.h.
 */
#ifndef SPE_FORMAT_H
#define SPE_FORMAT_H

#include "spe_caps.h"

/* perf_event_attr words: config, config1 ... config4. */
#define SPE_CFG_WORD_config	0
#define SPE_CFG_WORD_config1	1
#define SPE_CFG_WORD_config2	2
#define SPE_CFG_WORD_config3	3
#define SPE_CFG_WORD_config4	4
#define SPE_NR_CFG_WORDS	5

#define SPE_FMT(name, word, lo, hi, feat)	SPE_FMT_##name,
enum spe_fmt_id {
#include "spe/format_table.h"
	SPE_NR_FMT
};

#undef SPE_FMT

struct spe_format_field {
	const char *name;
	u8 word;		/* SPE_CFG_WORD_* */
	u8 lo;
	u8 hi;
	u32 feature;		/* SPE_FEAT_* needed, 0 if always there */
};

extern const struct spe_format_field spe_format_fields[SPE_NR_FMT];

/* What the driver knows about an event when it validates it. */
struct spe_event_req {
	u64 config[SPE_NR_CFG_WORDS];
	unsigned int nr_cfg_words;	/* words this kernel's ABI has */
	u64 period;			/* attr.sample_period */
	bool freq;
	bool exclude_user;
	bool exclude_kernel;
	bool exclude_idle;
	bool kernel_allowed;	/* may see kernel data (perf_allow_kernel) */
	bool cx_allowed;	/* privileged owner and PID in CONTEXTIDR */
};

/* Register values for one event, ready for the start sequence. */
struct spe_event_regs {
	u64 pmscr;
	u64 pmsirr;
	u64 pmsfcr;
	u64 pmsevfr;
	u64 pmsnevfr;
	u64 pmslatfr;
	u64 pmsdsfr;
	u64 pmblimitr_fm;	/* PMBLIMITR_EL1.FM bits, placed */
};

const char *spe_cfg_word_name(unsigned int word);
u64 spe_fmt_get(const u64 *config, enum spe_fmt_id id);
bool spe_fmt_supported(const struct spe_caps *caps, unsigned int nr_cfg_words,
		       enum spe_fmt_id id);
u64 spe_period_to_interval(const struct spe_caps *caps, u64 period);
int spe_event_validate(const struct spe_caps *caps,
		       const struct spe_event_req *req, const char **why);
void spe_event_to_regs(const struct spe_caps *caps,
		       const struct spe_event_req *req,
		       struct spe_event_regs *regs);

#endif /* SPE_FORMAT_H */
