// SPDX-License-Identifier: GPL-2.0
/*
 * Register sequences of one CPU's Statistical Profiling Unit (spe_unit.h).
 * All run on the CPU whose unit they program, with interrupts off or from
 * its PMBIRQ handler.
 */
#include "spe_backend.h"
#include "spe_format.h"
#include "spe_unit.h"

/*
 *  - PMSCR = 0 then ISB: later operations see profiling disabled (a
 *    direct write is seen by profiling after a context synchronisation
 *    event, DDI 0586A §3.6);
 *  - PSB CSYNC: synchronise the profiling operations of earlier
 *    instructions; DSB NSH: wait for their record writes to complete;
 *  - PMBLIMITR = 0 then ISB: the buffer is disabled before anything
 *    reads PMBPTR or reuses the memory.
 */
void spe_unit_disable_and_drain(void)
{
	spe_write(SPE_REG_PMSCR_EL1, 0);
	spe_isb();
	spe_psb_csync();
	spe_dsb_nsh();
	spe_write(SPE_REG_PMBLIMITR_EL1, 0);
	spe_isb();
}

/*
 * PSB CSYNC synchronises the profiling operations, DSB waits for their
 * writes to memory (and resolves any external abort they caused), ISB
 * makes the unit's indirect writes to PMBPTR and PMBSR visible to the
 * direct reads that follow (DDI 0586A §3.6).
 */
void spe_unit_sync(void)
{
	spe_psb_csync();
	spe_dsb_nsh();
	spe_isb();
}

void spe_unit_clear_status(void)
{
	spe_write(SPE_REG_PMBSR_EL1, 0);
	spe_isb();
}

void spe_unit_reset(void)
{
	spe_unit_disable_and_drain();
	spe_unit_clear_status();
}

void spe_unit_start(const struct spe_event_regs *regs, u64 pmscr, u64 icount,
		    bool has_nevfr, bool has_fds)
{
	spe_write(SPE_REG_PMSFCR_EL1, regs->pmsfcr);
	spe_write(SPE_REG_PMSEVFR_EL1, regs->pmsevfr);
	if (has_nevfr)
		spe_write(SPE_REG_PMSNEVFR_EL1, regs->pmsnevfr);
	if (has_fds)
		spe_write(SPE_REG_PMSDSFR_EL1, regs->pmsdsfr);
	spe_write(SPE_REG_PMSLATFR_EL1, regs->pmslatfr);
	spe_write(SPE_REG_PMSIRR_EL1, regs->pmsirr);
	spe_isb();

	spe_write(SPE_REG_PMSICR_EL1, icount);
	spe_isb();

	spe_write(SPE_REG_PMSCR_EL1, pmscr);
}

u64 spe_unit_read_icount(void)
{
	return spe_read(SPE_REG_PMSICR_EL1);
}
