// SPDX-License-Identifier: GPL-2.0
/*
 * SPE perf PMU driver: platform device probe, per-CPU feature discovery,
 * the PMBIRQ PPI, CPU hotplug, module init/exit.
 *
 * The device comes from the device tree (compatible
 * "arm,statistical-profiling-extension-v1") or from the kernel's ACPI PMU
 * code, which creates an "arm,spe-v1" platform device from the MADT GICC
 * entries.  Either way it carries one interrupt that must be a PPI; on
 * heterogeneous systems the PPI's partition (from 6.19, its affinity)
 * says which CPUs it covers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "spe_backend.h"
#include "spe_compat.h"
#include "spe_pmu.h"
#include "spe_unit.h"

static DEFINE_IDA(spe_ida);
static enum cpuhp_state spe_hp_state;

/* ---- Per-CPU discovery ------------------------------------------------- */

struct spe_cpu_probe {
	struct spe_cpu_regs regs;
	struct spe_caps caps;
	enum spe_caps_err err;
};

/*
 * Read this CPU's ID registers.  Runs on the CPU in question.  Only
 * ID_AA64DFR0_EL1 is safe to read on a CPU without SPE: every other
 * access is UNDEFINED there, so PMSVer gates the rest.
 */
static void spe_probe_local(void *info)
{
	struct spe_cpu_probe *p = info;
	struct spe_cpu_regs *r = &p->regs;

	memset(r, 0, sizeof(*r));
	r->dfr0 = spe_read_dfr0();
	if (spe_dfr0_pmsver(r->dfr0) == SPE_PMSVER_NI) {
		p->err = SPE_CAPS_NO_SPE;
		return;
	}

	/* DDI 0586A §4.3.1: P = 1, a higher EL owns the buffer; hands off. */
	r->pmbidr = spe_read(SPE_REG_PMBIDR_EL1);
	if (r->pmbidr & SPE_PMBIDR_P) {
		p->err = SPE_CAPS_BUF_PROHIBITED;
		return;
	}
	r->pmsidr = spe_read(SPE_REG_PMSIDR_EL1);
	spe_unit_reset();

	/*
	 * Unimplemented filter bits are RES0 and read back as zero
	 * (DDI 0487 PMSEVFR_EL1), which is the only way to learn them.
	 */
	if (r->pmsidr & SPE_PMSIDR_FE) {
		spe_write(SPE_REG_PMSEVFR_EL1, ~0ULL);
		spe_isb();
		r->evfr_impl = spe_read(SPE_REG_PMSEVFR_EL1);
		spe_write(SPE_REG_PMSEVFR_EL1, 0);
	}
	if (spe_dfr0_pmsver(r->dfr0) >= SPE_PMSVER_V1P2 &&
	    (r->pmsidr & SPE_PMSIDR_FNE)) {
		spe_write(SPE_REG_PMSNEVFR_EL1, ~0ULL);
		spe_isb();
		r->nevfr_impl = spe_read(SPE_REG_PMSNEVFR_EL1);
		spe_write(SPE_REG_PMSNEVFR_EL1, 0);
	}
	spe_isb();
	p->err = spe_caps_from_regs(r, &p->caps);
}

static void spe_log_diff(struct device *dev, int cpu, int ref_cpu, u32 diff)
{
	static const char * const what[] = {
		"SPE version", "features", "minimum interval",
		"latency counter size", "maximum record size",
		"buffer alignment", "implemented event filter bits",
		"implemented inverted event filter bits",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(what); i++)
		if (diff & BIT(i))
			dev_warn(dev,
				 "CPU%d differs from CPU%d in %s; using what both support\n",
				 cpu, ref_cpu, what[i]);
}

/*
 * Check every online CPU the interrupt covers, keep those with a usable
 * SPE and intersect their capabilities.  CPUs offline now are checked by
 * the hotplug callback when they come up.
 */
static int spe_discover(struct spe_pmu *spe)
{
	struct device *dev = &spe->pdev->dev;
	struct spe_cpu_probe *p;
	cpumask_var_t no_spe;
	int cpu, first = -1;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&no_spe, GFP_KERNEL)) {
		kfree(p);
		return -ENOMEM;
	}

	cpus_read_lock();
	for_each_cpu_and(cpu, &spe->supported_cpus, cpu_online_mask) {
		if (smp_call_function_single(cpu, spe_probe_local, p, 1))
			continue;
		if (p->err == SPE_CAPS_NO_SPE) {
			cpumask_set_cpu(cpu, no_spe);
			continue;
		}
		if (p->err != SPE_CAPS_OK) {
			dev_err(dev, "CPU%d: %s; not profiling on it\n", cpu,
				spe_caps_err_str(p->err));
			continue;
		}
		cpumask_set_cpu(cpu, &spe->probed_cpus);
		if (first < 0) {
			first = cpu;
			spe->caps = p->caps;
			continue;
		}
		spe_log_diff(dev, cpu, first, spe_caps_merge(&spe->caps, &p->caps));
	}
	/* Offline CPUs stay candidates; the usable online ones are known. */
	cpumask_andnot(&spe->supported_cpus, &spe->supported_cpus, no_spe);
	for_each_cpu_and(cpu, &spe->supported_cpus, cpu_online_mask)
		if (!cpumask_test_cpu(cpu, &spe->probed_cpus))
			cpumask_clear_cpu(cpu, &spe->supported_cpus);
	cpus_read_unlock();

	if (first < 0) {
		if (!cpumask_empty(no_spe))
			dev_info(dev,
				 "no SPE on CPUs %*pbl (ID_AA64DFR0_EL1.PMSVer = 0); no PMU registered\n",
				 cpumask_pr_args(no_spe));
		else
			dev_info(dev, "no usable SPE on any online CPU; no PMU registered\n");
		free_cpumask_var(no_spe);
		kfree(p);
		return -ENODEV;
	}
	if (!cpumask_empty(no_spe))
		dev_info(dev, "no SPE on CPUs %*pbl; profiling only CPUs %*pbl\n",
			 cpumask_pr_args(no_spe),
			 cpumask_pr_args(&spe->supported_cpus));
	free_cpumask_var(no_spe);
	kfree(p);
	return 0;
}

/*
 * A CPU that was offline at probe time comes up: it joins only if it
 * supports everything the PMU already advertises, since perf has already
 * been told the capabilities.
 */
static bool spe_check_late_cpu(struct spe_pmu *spe, unsigned int cpu)
{
	struct spe_cpu_probe p = { };

	spe_probe_local(&p);
	if (p.err == SPE_CAPS_OK) {
		if (spe_caps_covers(&p.caps, &spe->caps)) {
			cpumask_set_cpu(cpu, &spe->probed_cpus);
			return true;
		}
		dev_warn(&spe->pdev->dev,
			 "CPU%u came online with less SPE support than the PMU advertises; not profiling on it\n",
			 cpu);
	} else {
		dev_info(&spe->pdev->dev, "CPU%u: %s; not profiling on it\n",
			 cpu, spe_caps_err_str(p.err));
	}
	cpumask_clear_cpu(cpu, &spe->supported_cpus);
	return false;
}

/* ---- CPU hotplug -------------------------------------------------------- */

static int spe_cpu_startup(unsigned int cpu, struct hlist_node *node)
{
	struct spe_pmu *spe = hlist_entry_safe(node, struct spe_pmu,
					       hotplug_node);

	if (!cpumask_test_cpu(cpu, &spe->supported_cpus))
		return 0;
	if (!cpumask_test_cpu(cpu, &spe->probed_cpus) &&
	    !spe_check_late_cpu(spe, cpu))
		return 0;

	spe_unit_reset();
	enable_percpu_irq(spe->irq, IRQ_TYPE_NONE);
	cpumask_set_cpu(cpu, &spe->ready_cpus);
	return 0;
}

static int spe_cpu_teardown(unsigned int cpu, struct hlist_node *node)
{
	struct spe_pmu *spe = hlist_entry_safe(node, struct spe_pmu,
					       hotplug_node);

	cpumask_clear_cpu(cpu, &spe->ready_cpus);
	if (!cpumask_test_cpu(cpu, &spe->supported_cpus))
		return 0;

	/*
	 * This state is torn down before perf's own, so an event may still
	 * be running here: stop sampling and the buffer, but leave PMBSR
	 * and PMBPTR for the stop(PERF_EF_UPDATE) that perf issues next, so
	 * its AUX record ends where the data ends, with the right flags.
	 */
	disable_percpu_irq(spe->irq);
	spe_unit_disable_and_drain();
	return 0;
}

/* ---- Interrupt ---------------------------------------------------------- */

static int spe_irq_probe(struct spe_pmu *spe)
{
	struct platform_device *pdev = spe->pdev;
	int irq = spe_platform_get_percpu_irq(pdev, &spe->supported_cpus);

	if (irq < 0)
		return irq;	/* platform_get_irq() said why */

	/* DDI 0586A §3.5: PMBIRQ must be a PPI in a multiprocessor system. */
	if (!irq_is_percpu(irq)) {
		dev_err(&pdev->dev,
			"interrupt %d is an SPI, but PMBIRQ must be a PPI (firmware describes the SPE interrupt wrongly)\n",
			irq);
		return -EINVAL;
	}

	spe->irq = irq;
	return 0;
}

/* ---- Platform driver ---------------------------------------------------- */

static const struct of_device_id spe_of_match[] = {
	{ .compatible = "arm,statistical-profiling-extension-v1" },
	{ /* sentinel */ },
};
MODULE_DEVICE_TABLE(of, spe_of_match);

/* The ACPI PMU code registers the MADT's SPE interrupt under this name. */
static const struct platform_device_id spe_id_match[] = {
	{ .name = "arm,spe-v1" },
	{ /* sentinel */ },
};
MODULE_DEVICE_TABLE(platform, spe_id_match);

static int spe_register_pmu(struct spe_pmu *spe)
{
	struct device *dev = &spe->pdev->dev;
	const char *name;
	int ret;

	spe->id = ida_alloc(&spe_ida, GFP_KERNEL);
	if (spe->id < 0)
		return spe->id;

	name = devm_kasprintf(dev, GFP_KERNEL, "%s_%d", SPE_PMU_NAME, spe->id);
	if (!name) {
		ret = -ENOMEM;
		goto out_free_id;
	}

	spe_pmu_init_callbacks(spe);
	spe_pmu_set_parent(&spe->pmu, dev);
	ret = perf_pmu_register(&spe->pmu, name, -1);
	if (ret)
		goto out_free_id;

	dev_info(dev,
		 "registered %s (%s backend): CPUs %*pbl, PMSVer %u, features 0x%x, min interval %u, %u-bit counters, records up to %u bytes, alignment %u\n",
		 name, spe_backend_name(), cpumask_pr_args(&spe->supported_cpus),
		 spe->caps.pmsver, spe->caps.features, spe->caps.min_interval,
		 spe->caps.counter_bits, spe->caps.max_record, spe->caps.align);
	return 0;

out_free_id:
	ida_free(&spe_ida, spe->id);
	return ret;
}

static int spe_device_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct spe_pmu *spe;
	int ret;

	spe = devm_kzalloc(dev, sizeof(*spe), GFP_KERNEL);
	if (!spe)
		return -ENOMEM;

	spe->handle = alloc_percpu(typeof(*spe->handle));
	if (!spe->handle)
		return -ENOMEM;

	spe->pdev = pdev;
	platform_set_drvdata(pdev, spe);

	ret = spe_irq_probe(spe);
	if (ret)
		goto out_free_handle;

	ret = spe_discover(spe);
	if (ret)
		goto out_free_handle;

	spe->backend = (struct spe_backend_pmu) {
		.dev = dev,
		.cpus = &spe->supported_cpus,
		.irq = spe->irq,
		.handler = spe_irq_handler,
		.dev_id = spe->handle,
	};
	ret = spe_backend_probe(&spe->backend);
	if (ret)
		goto out_free_handle;

	ret = request_percpu_irq(spe->irq, spe_irq_handler, SPE_DRV_NAME,
				 spe->handle);
	if (ret) {
		dev_err(dev, "cannot request PPI %d: %d\n", spe->irq, ret);
		goto out_backend;
	}

	/* Enables the PPI and resets the unit on every online CPU. */
	ret = cpuhp_state_add_instance(spe_hp_state, &spe->hotplug_node);
	if (ret)
		goto out_free_irq;

	ret = spe_register_pmu(spe);
	if (ret)
		goto out_remove_instance;
	return 0;

out_remove_instance:
	cpuhp_state_remove_instance(spe_hp_state, &spe->hotplug_node);
out_free_irq:
	free_percpu_irq(spe->irq, spe->handle);
out_backend:
	spe_backend_remove(&spe->backend);
out_free_handle:
	free_percpu(spe->handle);
	return ret;
}

static void spe_device_remove(struct platform_device *pdev)
{
	struct spe_pmu *spe = platform_get_drvdata(pdev);

	perf_pmu_unregister(&spe->pmu);
	cpuhp_state_remove_instance(spe_hp_state, &spe->hotplug_node);
	free_percpu_irq(spe->irq, spe->handle);
	spe_backend_remove(&spe->backend);
	free_percpu(spe->handle);
	ida_free(&spe_ida, spe->id);
}

SPE_PLATFORM_REMOVE_WRAPPER(spe_device_remove)

static struct platform_driver spe_driver = {
	.driver = {
		.name = SPE_DRV_NAME,
		.of_match_table = spe_of_match,
		/* Unbinding under a live perf session is not supported. */
		.suppress_bind_attrs = true,
	},
	.id_table = spe_id_match,
	.probe = spe_device_probe,
	SPE_PLATFORM_REMOVE(spe_device_remove),
};

/* ---- Coexistence with the in-tree arm_spe_pmu --------------------------- */

struct spe_scan {
	unsigned int devices;	/* SPE devices firmware describes */
	unsigned int foreign;	/* ... bound to another driver */
};

static int spe_scan_one(struct device *dev, void *data)
{
	struct platform_device *pdev = to_platform_device(dev);
	struct device_driver *drv = READ_ONCE(dev->driver);
	struct spe_scan *scan = data;

	if (!of_match_node(spe_of_match, dev->of_node) &&
	    strcmp(pdev->name, spe_id_match[0].name))
		return 0;

	scan->devices++;
	if (drv && drv != &spe_driver.driver) {
		scan->foreign++;
		pr_err("%s is already bound to driver \"%s\"; to use this driver instead run \"rmmod %s\", add \"blacklist %s\" to a file in /etc/modprobe.d/ so it stays unloaded, then load this module again\n",
		       dev_name(dev), drv->name,
		       drv->owner ? module_name(drv->owner) : drv->name,
		       drv->owner ? module_name(drv->owner) : drv->name);
	}
	return 0;
}

/*
 * The hardware and the simulated build drive the same device and register
 * the same PMU names: only one of them may be loaded at a time.
 */
static int spe_check_other_build(void)
{
	static const char * const builds[] = { "arm_spe", "arm_spe_sim" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(builds); i++) {
		if (!strcmp(builds[i], SPE_DRV_NAME) ||
		    !driver_find(builds[i], &platform_bus_type))
			continue;
		pr_err("module %s is loaded, the other build of this driver; both drive the same SPE device and register the same PMU names, so only one can be loaded: run \"rmmod %s\" first\n",
		       builds[i], builds[i]);
		return -EBUSY;
	}
	return 0;
}

static int __init spe_init(void)
{
	struct spe_scan scan = { };
	int ret;

	ret = spe_check_other_build();
	if (ret)
		return ret;

	spe_sysfs_init();

	ret = spe_backend_init();
	if (ret)
		return ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/arm/spe:online",
				      spe_cpu_startup, spe_cpu_teardown);
	if (ret < 0)
		goto out_backend;
	spe_hp_state = ret;

	ret = platform_driver_register(&spe_driver);
	if (ret)
		goto out_cpuhp;

	bus_for_each_dev(&platform_bus_type, NULL, &scan, spe_scan_one);
	if (scan.foreign) {
		ret = -EBUSY;
		goto out_driver;
	}
	if (!scan.devices)
		pr_info("no SPE device described by firmware (device tree or ACPI); nothing to do\n");
	return 0;

out_driver:
	platform_driver_unregister(&spe_driver);
out_cpuhp:
	cpuhp_remove_multi_state(spe_hp_state);
out_backend:
	spe_backend_exit();
	return ret;
}
module_init(spe_init);

static void __exit spe_exit(void)
{
	platform_driver_unregister(&spe_driver);
	cpuhp_remove_multi_state(spe_hp_state);
	spe_backend_exit();
}
module_exit(spe_exit);

MODULE_DESCRIPTION("Perf driver for the Arm Statistical Profiling Extension");
MODULE_LICENSE("GPL");
/* The DKMS package version (dkms.conf PACKAGE_VERSION). */
MODULE_VERSION("0.1");
