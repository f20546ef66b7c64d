/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernel versions the driver builds against, in
 * one place: every Debian kernel from bullseye's 5.10 to the newest in
 * trixie-backports (scripts/fetch-kernels.sh all).  Each shim names the
 * release, and where known the upstream commit, that made it necessary;
 * the build matrix compiles both sides of each.
 */
#ifndef SPE_COMPAT_H
#define SPE_COMPAT_H

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/irq.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/version.h>

/*
 * platform_driver.remove returns int up to 6.10 and void from 6.11.  6.3
 * added the void variant as .remove_new (5c5a7680e67b, "platform: Provide
 * a remove callback that returns no value"); before it a wrapper returns
 * the int.  SPE_PLATFORM_REMOVE_WRAPPER(fn) goes after fn's definition,
 * SPE_PLATFORM_REMOVE(fn) into the struct platform_driver.
 */
#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
#define SPE_PLATFORM_REMOVE_WRAPPER(fn)
#define SPE_PLATFORM_REMOVE(fn)	.remove = (fn)
#elif KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define SPE_PLATFORM_REMOVE_WRAPPER(fn)
#define SPE_PLATFORM_REMOVE(fn)	.remove_new = (fn)
#else
#define SPE_PLATFORM_REMOVE_WRAPPER(fn)					\
	static int fn##_int(struct platform_device *pdev)		\
	{								\
		fn(pdev);						\
		return 0;						\
	}
#define SPE_PLATFORM_REMOVE(fn)	.remove = fn##_int
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
 * Permission to see kernel data.  Up to 6.1 perf_allow_kernel() is inline
 * over the unexported perf_event_paranoid sysctl, so a module falls back
 * to the capability the sysctl's strictest setting asks for.  6.15 dropped
 * its argument, and 6.12.y stable did too: spe_compat.mk tells which form
 * the headers have.
 */
static inline int spe_perf_allow_kernel(struct perf_event_attr *attr)
{
#if defined(SPE_HAVE_PERF_ALLOW_KERNEL_VOID)
	return perf_allow_kernel();
#elif KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
	return perf_allow_kernel(attr);
#else
	return perfmon_capable() ? 0 : -EACCES;
#endif
}

/*
 * The CPUs a per-CPU interrupt (PPI) serves.  A PPI partition limits them
 * to one type of CPU; 6.19 replaced partitions with a per-interrupt
 * affinity from the firmware description, read with
 * platform_get_irq_affinity() ("perf: arm_spe_pmu: Convert to new IRQ
 * affinity retrieval API"), and removed irq_get_percpu_devid_partition().
 * Returns the interrupt number, or a negative error from platform_get_irq().
 */
static inline int spe_platform_get_percpu_irq(struct platform_device *pdev,
					      struct cpumask *cpus)
{
#if KERNEL_VERSION(6, 19, 0) <= LINUX_VERSION_CODE
	const struct cpumask *affinity = NULL;
	int irq = platform_get_irq_affinity(pdev, 0, &affinity);

	cpumask_copy(cpus, affinity ? affinity : cpu_possible_mask);
#else
	int irq = platform_get_irq(pdev, 0);

	if (irq >= 0 && irq_get_percpu_devid_partition(irq, cpus))
		cpumask_copy(cpus, cpu_possible_mask);
#endif
	return irq;
}

/* pmu->parent (6.7) links the PMU's sysfs directory to its device. */
static inline void spe_pmu_set_parent(struct pmu *pmu, struct device *dev)
{
#if KERNEL_VERSION(6, 7, 0) <= LINUX_VERSION_CODE
	pmu->parent = dev;
#endif
}

/*
 * 6.13 added hrtimer_setup(), which sets the callback with the rest
 * (908a1d775422, "hrtimers: Introduce hrtimer_setup() to replace
 * hrtimer_init()"); 7.x removed hrtimer_init().
 */
static inline void spe_hrtimer_setup(struct hrtimer *timer,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock, enum hrtimer_mode mode)
{
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* SPE_COMPAT_H */
