// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EL0 side of the emulated SPE unit's access rules (DDI 0586A §4.3: every
 * PMS and PMB register is UNDEFINED at EL0): each MRS below must raise
 * SIGILL.  PSB CSYNC is a hint and must execute as a NOP at EL0.
 * Prints one "name=sigill|read" line per register and "psb=nop".
 * A static arm64 program run in the guest by suite 58.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf env;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

#define TRY_MRS(name, enc)						\
	do {								\
		unsigned long v = 0;					\
		if (sigsetjmp(env, 1) == 0) {				\
			__asm__ volatile("mrs %0, " enc : "=r"(v));	\
			printf("%s=read\n", name);			\
		} else {						\
			printf("%s=sigill\n", name);			\
		}							\
		(void)v;						\
	} while (0)

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigill;
	sigaction(SIGILL, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	TRY_MRS("PMSCR_EL1", "s3_0_c9_c9_0");
	TRY_MRS("PMSICR_EL1", "s3_0_c9_c9_2");
	TRY_MRS("PMSIRR_EL1", "s3_0_c9_c9_3");
	TRY_MRS("PMSFCR_EL1", "s3_0_c9_c9_4");
	TRY_MRS("PMSEVFR_EL1", "s3_0_c9_c9_5");
	TRY_MRS("PMSLATFR_EL1", "s3_0_c9_c9_6");
	TRY_MRS("PMSIDR_EL1", "s3_0_c9_c9_7");
	TRY_MRS("PMBLIMITR_EL1", "s3_0_c9_c10_0");
	TRY_MRS("PMBPTR_EL1", "s3_0_c9_c10_1");
	TRY_MRS("PMBSR_EL1", "s3_0_c9_c10_3");
	TRY_MRS("PMBIDR_EL1", "s3_0_c9_c10_7");
	if (sigsetjmp(env, 1) == 0) {
		__asm__ volatile("hint #17" ::: "memory");	/* PSB CSYNC */
		printf("psb=nop\n");
	} else {
		printf("psb=sigill\n");
	}
	return 0;
}
