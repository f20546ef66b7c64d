// SPDX-License-Identifier: GPL-2.0
/*
 * arm_pcsample: a perf PMU that profiles a core without interrupting it,
 * from the PC Sample-based Profiling registers other cores read through
 * memory-mapped register frames (DDI 0487, External Registers, PMPCSR;
 * DDI 0487 Part H, "The PC Sample-based Profiling Extension").
 *
 * Probed from the device tree (Documentation/devicetree/bindings/perf/
 * arm,pcsample.yaml): one node lists each CPU's external PMU frames
 * ("arm,pcsample-pmu", FEAT_PCSRv8p2) or external debug frames
 * ("arm,pcsample-debug", before Armv8.2).  No ACPI table describes these
 * frames for a PMU driver, so there is no ACPI probe.
 *
 * Events are per CPU (perf_event_open with cpu >= 0 and pid = -1); the
 * period is an interval in nanoseconds or a frequency.  Samples go to the
 * event's AUX buffer as 32-byte records (include/pcsample/record.h), written by
 * the sampler on the housekeeping CPU (pcsample_sampler.c says why this is
 * safe, and why not ordinary PERF_RECORD_SAMPLEs).
 */
#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/sysfs.h>
#include <asm/virt.h>

#include "spe_compat.h"
#include "pcsample.h"

static int housekeeping_cpu;
module_param(housekeeping_cpu, int, 0444);
MODULE_PARM_DESC(housekeeping_cpu,
		 "CPU that reads the others' sample registers; it is never sampled (default 0)");

/* One device: there is one housekeeping thread. */
static DEFINE_MUTEX(pcs_probe_lock);
static bool pcs_probed;

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct pcs_dev *pd = container_of(dev_get_drvdata(dev), struct pcs_dev, pmu);

	return sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(&pd->supported));
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *pcs_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group pcs_pmu_group = {
	.attrs = pcs_pmu_attrs,
};

static const struct attribute_group *pcs_pmu_groups[] = {
	&pcs_pmu_group,
	NULL,
};

static int pcs_parse_frames(struct platform_device *pdev, struct pcs_dev *pd)
{
	struct device_node *np = pdev->dev.of_node;
	int i, n, cpu;

	n = of_count_phandle_with_args(np, "cpus", NULL);
	if (n <= 0) {
		dev_err(&pdev->dev, "no \"cpus\" property: which CPU each frame belongs to is unknown\n");
		return -EINVAL;
	}
	if (n != pdev->num_resources) {
		dev_err(&pdev->dev, "%d CPUs in \"cpus\" but %u frames in \"reg\"\n",
			n, pdev->num_resources);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		struct device_node *cn = of_parse_phandle(np, "cpus", i);
		struct pcs_target *t;

		cpu = cn ? of_cpu_node_to_id(cn) : -ENODEV;
		of_node_put(cn);
		if (cpu < 0) {
			dev_warn(&pdev->dev, "cpus[%d] is not a possible CPU; frame ignored\n", i);
			continue;
		}
		if (pd->targets[cpu]) {
			dev_err(&pdev->dev, "CPU %d is listed twice in \"cpus\"\n", cpu);
			return -EINVAL;
		}
		t = devm_kzalloc(&pdev->dev, sizeof(*t), GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		t->base = devm_platform_ioremap_resource(pdev, i);
		if (IS_ERR(t->base))
			return PTR_ERR(t->base);
		t->cpu = cpu;
		raw_spin_lock_init(&t->lock);
		pd->targets[cpu] = t;
		if (cpu == pd->hk_cpu)
			dev_info(&pdev->dev, "CPU %d is the housekeeping CPU and is not sampled\n",
				 cpu);
		else
			cpumask_set_cpu(cpu, &pd->supported);
	}
	if (cpumask_empty(&pd->supported)) {
		dev_err(&pdev->dev, "no CPU left to sample\n");
		return -ENODEV;
	}
	return 0;
}

static int pcs_probe(struct platform_device *pdev)
{
	struct pcs_dev *pd;
	int ret;

	mutex_lock(&pcs_probe_lock);
	if (pcs_probed) {
		mutex_unlock(&pcs_probe_lock);
		dev_err(&pdev->dev, "a PC-sample device is already probed; only one is supported\n");
		return -EBUSY;
	}
	pcs_probed = true;
	mutex_unlock(&pcs_probe_lock);

	ret = -EINVAL;
	if (housekeeping_cpu < 0 || housekeeping_cpu >= nr_cpu_ids ||
	    !cpu_online(housekeeping_cpu)) {
		dev_err(&pdev->dev, "housekeeping_cpu=%d is not an online CPU\n",
			housekeeping_cpu);
		goto err;
	}
	ret = -ENOMEM;
	pd = devm_kzalloc(&pdev->dev, sizeof(*pd), GFP_KERNEL);
	if (!pd)
		goto err;
	pd->targets = devm_kcalloc(&pdev->dev, nr_cpu_ids, sizeof(*pd->targets), GFP_KERNEL);
	if (!pd->targets)
		goto err;
	pd->dev = &pdev->dev;
	pd->hk_cpu = housekeeping_cpu;
	pd->kind = (uintptr_t)device_get_match_data(&pdev->dev);
	pd->atomic64 = pd->kind == PCS_FRAME_PMU &&
		       of_property_read_bool(pdev->dev.of_node, "arm,pcsr-64bit-atomic");
	pd->host.kernel_el = is_kernel_in_hyp_mode() ? 2 : 1;
	pd->host.pid_in_contextidr = IS_ENABLED(CONFIG_PID_IN_CONTEXTIDR);
	if (!pd->host.pid_in_contextidr)
		dev_info(&pdev->dev, "CONFIG_PID_IN_CONTEXTIDR is off: samples carry no PID\n");

	ret = pcs_parse_frames(pdev, pd);
	if (ret)
		goto err;

	pcs_pmu_init(pd);
	pd->pmu.module = THIS_MODULE;
	pd->pmu.attr_groups = pcs_pmu_groups;
	spe_pmu_set_parent(&pd->pmu, &pdev->dev);

	ret = pcs_sampler_start(pd);
	if (ret)
		goto err;
	ret = perf_pmu_register(&pd->pmu, "arm_pcsample", -1);
	if (ret) {
		pcs_sampler_stop(pd);
		goto err;
	}
	platform_set_drvdata(pdev, pd);
	pcs_debugfs_init(pd);
	dev_info(&pdev->dev, "arm_pcsample: %u CPUs from %s frames, read from CPU %d\n",
		 cpumask_weight(&pd->supported),
		 pd->kind == PCS_FRAME_PMU ? "external PMU" : "external debug", pd->hk_cpu);
	return 0;

err:
	mutex_lock(&pcs_probe_lock);
	pcs_probed = false;
	mutex_unlock(&pcs_probe_lock);
	return ret;
}

static void pcs_remove(struct platform_device *pdev)
{
	struct pcs_dev *pd = platform_get_drvdata(pdev);

	pcs_debugfs_exit();
	perf_pmu_unregister(&pd->pmu);
	pcs_sampler_stop(pd);
	mutex_lock(&pcs_probe_lock);
	pcs_probed = false;
	mutex_unlock(&pcs_probe_lock);
}

SPE_PLATFORM_REMOVE_WRAPPER(pcs_remove)

static const struct of_device_id pcs_of_match[] = {
	{ .compatible = "arm,pcsample-pmu", .data = (void *)PCS_FRAME_PMU },
	{ .compatible = "arm,pcsample-debug", .data = (void *)PCS_FRAME_DEBUG },
	{ }
};
MODULE_DEVICE_TABLE(of, pcs_of_match);

static struct platform_driver pcs_driver = {
	.driver = {
		.name = "arm_pcsample",
		.of_match_table = pcs_of_match,
		.suppress_bind_attrs = true,
	},
	.probe = pcs_probe,
	SPE_PLATFORM_REMOVE(pcs_remove),
};

/*
 * Without a node there is nothing to probe: say so, rather than load a
 * driver that silently registers no PMU (a board without the frames, or an
 * ACPI system, for which no binding exists).
 */
static int __init pcs_init(void)
{
	struct device_node *np = of_find_matching_node(NULL, pcs_of_match);

	if (!np) {
		pr_info("arm_pcsample: no PC sample registers: no arm,pcsample-pmu or arm,pcsample-debug node in the device tree\n");
		return -ENODEV;
	}
	of_node_put(np);
	return platform_driver_register(&pcs_driver);
}
module_init(pcs_init);

static void __exit pcs_exit(void)
{
	platform_driver_unregister(&pcs_driver);
}
module_exit(pcs_exit);

MODULE_DESCRIPTION("Arm PC Sample-based Profiling (PMPCSR) perf PMU");
MODULE_LICENSE("GPL");
