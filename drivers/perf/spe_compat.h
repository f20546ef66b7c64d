/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernel versions the driver builds against
 * (Debian's 6.1 and 6.12), in one place.
 */
#ifndef SPE_COMPAT_H
#define SPE_COMPAT_H

#include <linux/capability.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/version.h>

/*
 * platform_driver.remove returns int up to 6.10 and void from 6.11;
 * 6.1 has the void variant as .remove_new.
 */
#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
#define SPE_PLATFORM_REMOVE(fn)	.remove = (fn)
#else
#define SPE_PLATFORM_REMOVE(fn)	.remove_new = (fn)
#endif

/*
 * perf_attr.config3 appeared in 6.3 (PERF_ATTR_SIZE_VER8), config4 with
 * PERF_ATTR_SIZE_VER9.  Attributes in a missing word stay hidden.
 */
#if defined(PERF_ATTR_SIZE_VER9)
#define SPE_NR_ATTR_CFG_WORDS	5
#elif defined(PERF_ATTR_SIZE_VER8)
#define SPE_NR_ATTR_CFG_WORDS	4
#else
#define SPE_NR_ATTR_CFG_WORDS	3
#endif

static inline void spe_attr_config_words(const struct perf_event_attr *attr,
					 u64 *cfg)
{
	cfg[0] = attr->config;
	cfg[1] = attr->config1;
	cfg[2] = attr->config2;
#if SPE_NR_ATTR_CFG_WORDS > 3
	cfg[3] = attr->config3;
#endif
#if SPE_NR_ATTR_CFG_WORDS > 4
	cfg[4] = attr->config4;
#endif
}

/*
 * Permission to see kernel data.  6.1 has perf_allow_kernel() inline
 * over the unexported perf_event_paranoid sysctl, so a module falls back
 * to the capability the sysctl's strictest setting asks for.
 */
static inline int spe_perf_allow_kernel(struct perf_event_attr *attr)
{
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
	return perf_allow_kernel(attr);
#else
	return perfmon_capable() ? 0 : -EACCES;
#endif
}

/* pmu->parent (6.7) links the PMU's sysfs directory to its device. */
static inline void spe_pmu_set_parent(struct pmu *pmu, struct device *dev)
{
#if KERNEL_VERSION(6, 7, 0) <= LINUX_VERSION_CODE
	pmu->parent = dev;
#endif
}

#endif /* SPE_COMPAT_H */
