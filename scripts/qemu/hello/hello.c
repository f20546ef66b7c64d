// SPDX-License-Identifier: GPL-2.0
/*
 * Smallest useful module: proves that a kernel tree fetched by
 * scripts/fetch-kernels.sh builds modules, and that the guest kernel loads
 * what was built against it (vermagic, module format, symbol versions).
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init spe_hello_init(void)
{
	pr_info("spe_hello: loaded\n");
	return 0;
}

static void __exit spe_hello_exit(void)
{
	pr_info("spe_hello: unloaded\n");
}

module_init(spe_hello_init);
module_exit(spe_hello_exit);
MODULE_DESCRIPTION("Kernel tree and guest module-loading check");
MODULE_LICENSE("GPL");
