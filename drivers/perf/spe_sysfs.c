// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs ABI of the SPE PMU (perf-arm-spe.txt): format/, caps/ and cpumask.
 *
 * The format/ files come from SPE_FORMAT_TABLE, the same table that
 * extracts the bits in spe_format.c, so names and bit positions cannot
 * drift apart.  An attribute whose feature the hardware (or the config
 * word the kernel) lacks is hidden; perf then refuses the term by name.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "spe_compat.h"
#include "spe_pmu.h"

static struct spe_pmu *spe_from_dev(struct device *dev)
{
	return to_spe_pmu(dev_get_drvdata(dev));
}

/* ---- format/ ------------------------------------------------------------ */

/*
 * One attribute per table entry, filled in by spe_sysfs_init() from
 * spe_format_fields[] so that the file name, its text and the bits the
 * driver extracts all come from spe/format_table.h.
 */
struct spe_format_attr {
	struct device_attribute attr;
	const struct spe_format_field *field;
};

static struct spe_format_attr spe_format_dev_attrs[SPE_NR_FMT];
static struct attribute *spe_format_attrs[SPE_NR_FMT + 1];

static ssize_t spe_format_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	const struct spe_format_field *f =
		container_of(attr, struct spe_format_attr, attr)->field;

	if (f->lo == f->hi)
		return sysfs_emit(buf, "%s:%u\n", spe_cfg_word_name(f->word),
				  f->lo);
	return sysfs_emit(buf, "%s:%u-%u\n", spe_cfg_word_name(f->word),
			  f->lo, f->hi);
}

void spe_sysfs_init(void)
{
	unsigned int i;

	for (i = 0; i < SPE_NR_FMT; i++) {
		struct spe_format_attr *fa = &spe_format_dev_attrs[i];

		sysfs_attr_init(&fa->attr.attr);
		fa->attr.attr.name = spe_format_fields[i].name;
		fa->attr.attr.mode = 0444;
		fa->attr.show = spe_format_show;
		fa->field = &spe_format_fields[i];
		spe_format_attrs[i] = &fa->attr.attr;
	}
	spe_format_attrs[SPE_NR_FMT] = NULL;
}

static umode_t spe_format_visible(struct kobject *kobj, struct attribute *attr,
				  int idx)
{
	struct spe_pmu *spe = spe_from_dev(kobj_to_dev(kobj));

	return spe_fmt_supported(&spe->caps, SPE_NR_ATTR_CFG_WORDS,
				 (enum spe_fmt_id)idx) ? attr->mode : 0;
}

static const struct attribute_group spe_format_group = {
	.name = "format",
	.attrs = spe_format_attrs,
	.is_visible = spe_format_visible,
};

/* ---- caps/ -------------------------------------------------------------- */

static ssize_t arch_inst_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  !!(spe_from_dev(dev)->caps.features & SPE_FEAT_ARCH_INST));
}
static DEVICE_ATTR_RO(arch_inst);

static ssize_t ernd_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  !!(spe_from_dev(dev)->caps.features & SPE_FEAT_ERND));
}
static DEVICE_ATTR_RO(ernd);

static ssize_t count_size_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", spe_from_dev(dev)->caps.counter_bits);
}
static DEVICE_ATTR_RO(count_size);

static ssize_t min_interval_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", spe_from_dev(dev)->caps.min_interval);
}
static DEVICE_ATTR_RO(min_interval);

static ssize_t event_filter_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  (unsigned long long)spe_from_dev(dev)->caps.evfr_mask);
}
static DEVICE_ATTR_RO(event_filter);

static struct attribute *spe_caps_attrs[] = {
	&dev_attr_arch_inst.attr,
	&dev_attr_ernd.attr,
	&dev_attr_count_size.attr,
	&dev_attr_min_interval.attr,
	&dev_attr_event_filter.attr,
	NULL,
};

static umode_t spe_caps_visible(struct kobject *kobj, struct attribute *attr,
				int idx)
{
	struct spe_pmu *spe = spe_from_dev(kobj_to_dev(kobj));

	if (attr == &dev_attr_event_filter.attr &&
	    !(spe->caps.features & SPE_FEAT_FILT_EVT))
		return 0;
	return attr->mode;
}

static const struct attribute_group spe_caps_group = {
	.name = "caps",
	.attrs = spe_caps_attrs,
	.is_visible = spe_caps_visible,
};

/* ---- cpumask ------------------------------------------------------------ */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%*pbl\n",
			  cpumask_pr_args(&spe_from_dev(dev)->supported_cpus));
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *spe_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group spe_pmu_group = {
	.attrs = spe_pmu_attrs,
};

const struct attribute_group *spe_attr_groups[] = {
	&spe_pmu_group,
	&spe_caps_group,
	&spe_format_group,
	NULL,
};
