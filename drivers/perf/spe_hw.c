// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware backend of the SPE driver: the real system registers.
 *
 * Register encodings come from include/spe/regs.h rather than the kernel's
 * sysreg.h, whose SPE names differ between 6.1 and 6.12.  The _s accessors
 * emit the encoding directly, so no assembler support for the names is
 * needed either.
 */
#include <linux/device.h>
#include <linux/errno.h>

#include <asm/barrier.h>
#include <asm/mmu.h>
#include <asm/sysreg.h>

#include "spe_backend.h"
#include "spe/regs.h"

/* sys_reg() takes five arguments; the regs.h encodings are one macro. */
#define __SPE_SYS_REG(op0, op1, crn, crm, op2)	sys_reg(op0, op1, crn, crm, op2)
#define SPE_SYS_REG(enc)			__SPE_SYS_REG(enc)

const char *spe_backend_name(void)
{
	return "hardware";
}

/*
 * One case per register of spe/regs.h and no default: -Wswitch then
 * fails the build until a register added to the list is handled here.
 */
u64 spe_read(enum spe_sysreg reg)
{
	switch (reg) {
	case SPE_REG_PMSCR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSCR_EL1));
	case SPE_REG_PMSNEVFR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSNEVFR_EL1));
	case SPE_REG_PMSICR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSICR_EL1));
	case SPE_REG_PMSIRR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSIRR_EL1));
	case SPE_REG_PMSFCR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSFCR_EL1));
	case SPE_REG_PMSEVFR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSEVFR_EL1));
	case SPE_REG_PMSLATFR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSLATFR_EL1));
	case SPE_REG_PMSIDR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSIDR_EL1));
	case SPE_REG_PMBLIMITR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMBLIMITR_EL1));
	case SPE_REG_PMBPTR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMBPTR_EL1));
	case SPE_REG_PMBSR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMBSR_EL1));
	case SPE_REG_PMSDSFR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMSDSFR_EL1));
	case SPE_REG_PMBIDR_EL1:
		return read_sysreg_s(SPE_SYS_REG(SPE_SYS_PMBIDR_EL1));
	case SPE_REG_PMSCR_EL2:		/* not the driver's: see spe/regs.h */
	case SPE_REG_ID_AA64DFR0_EL1:
	case SPE_REG_NR:
		break;
	}
	WARN_ONCE(1, "arm_spe: read of unknown register %d\n", reg);
	return 0;
}

void spe_write(enum spe_sysreg reg, u64 val)
{
	switch (reg) {
	case SPE_REG_PMSCR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSCR_EL1));
		return;
	case SPE_REG_PMSNEVFR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSNEVFR_EL1));
		return;
	case SPE_REG_PMSICR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSICR_EL1));
		return;
	case SPE_REG_PMSIRR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSIRR_EL1));
		return;
	case SPE_REG_PMSFCR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSFCR_EL1));
		return;
	case SPE_REG_PMSEVFR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSEVFR_EL1));
		return;
	case SPE_REG_PMSLATFR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSLATFR_EL1));
		return;
	case SPE_REG_PMBLIMITR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMBLIMITR_EL1));
		return;
	case SPE_REG_PMBPTR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMBPTR_EL1));
		return;
	case SPE_REG_PMBSR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMBSR_EL1));
		return;
	case SPE_REG_PMSDSFR_EL1:
		write_sysreg_s(val, SPE_SYS_REG(SPE_SYS_PMSDSFR_EL1));
		return;
	case SPE_REG_PMSIDR_EL1:
	case SPE_REG_PMBIDR_EL1:
	case SPE_REG_PMSCR_EL2:
	case SPE_REG_ID_AA64DFR0_EL1:
	case SPE_REG_NR:
		break;
	}
	WARN_ONCE(1, "arm_spe: write of read-only or unknown register %d\n", reg);
}

void spe_psb_csync(void)
{
	psb_csync();
}

void spe_isb(void)
{
	isb();
}

void spe_dsb_nsh(void)
{
	dsb(nsh);
}

u64 spe_read_dfr0(void)
{
	return read_sysreg(id_aa64dfr0_el1);
}

/*
 * With KPTI the kernel is unmapped while EL0 runs, so the profiling
 * buffer (a kernel mapping) cannot be written when a user-space operation
 * is sampled: every EL0 sample would end in a translation fault.
 */
int spe_backend_probe(const struct spe_backend_pmu *pmu)
{
	if (arm64_kernel_unmapped_at_el0()) {
		dev_err(pmu->dev,
			"profiling buffer inaccessible: the kernel is unmapped at EL0 (KPTI); boot with \"kpti=off\" to use SPE\n");
		return -EPERM;
	}
	return 0;
}

/* The real unit raises PMBIRQ itself. */
void spe_backend_remove(const struct spe_backend_pmu *pmu)
{
}

int spe_backend_init(void)
{
	return 0;
}

void spe_backend_exit(void)
{
}
