// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/arm_pcsample/stats: what the sampler did with each
 * CPU's captures, for the "why are there no samples?" question (Secure
 * code, a core always in Debug state, powered down, or a refused frame).
 * One line per sampled CPU; the counts never reset.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "pcsample.h"

static struct dentry *pcs_debugfs_dir;

static int pcs_stats_show(struct seq_file *m, void *unused)
{
	struct pcs_dev *pd = m->private;
	unsigned long flags;
	int cpu;

	seq_puts(m, "cpu sampled no_sample not_non_secure el3 excluded aarch32 not_readable missed frame\n");
	for_each_cpu(cpu, &pd->supported) {
		struct pcs_target *t = pd->targets[cpu];
		u64 v[PCS_NR_VERDICTS], not_readable, missed;
		const char *frame;
		int i;

		raw_spin_lock_irqsave(&t->lock, flags);
		for (i = 0; i < PCS_NR_VERDICTS; i++)
			v[i] = t->verdicts[i];
		not_readable = t->not_readable;
		missed = t->missed;
		frame = t->frame_bad ? "refused" : t->frame_checked ? "ok" : "unread";
		raw_spin_unlock_irqrestore(&t->lock, flags);
		seq_printf(m, "%d %llu %llu %llu %llu %llu %llu %llu %llu %s\n", cpu,
			   v[PCS_OK], v[PCS_NONE], v[PCS_SECURE], v[PCS_EL3],
			   v[PCS_EXCLUDED], v[PCS_AARCH32], not_readable, missed, frame);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pcs_stats);

void pcs_debugfs_init(struct pcs_dev *pd)
{
	pcs_debugfs_dir = debugfs_create_dir("arm_pcsample", NULL);
	debugfs_create_file("stats", 0400, pcs_debugfs_dir, pd, &pcs_stats_fops);
}

void pcs_debugfs_exit(void)
{
	debugfs_remove_recursive(pcs_debugfs_dir);
	pcs_debugfs_dir = NULL;
}
