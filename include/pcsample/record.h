/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PC-sample AUX record: the format arm_pcsample.ko writes into an
 * event's AUX buffer and a recorder (tools/pcsample) reads back.  It is an
 * ABI between the kernel module and userspace, so it lives here, apart from
 * the driver, and is complete in itself: the packing is inline, and a tool
 * needs nothing of the driver to read it.  Portable: <linux/types.h> is the
 * kernel's, or include/host-types' in userspace.
 */
#ifndef PCSAMPLE_RECORD_H
#define PCSAMPLE_RECORD_H

#include <linux/types.h>

/* Who the sampled code belongs to, as perf's cpumode will say it. */
enum pcs_mode {
	PCS_MODE_USER,
	PCS_MODE_KERNEL,
	PCS_MODE_HYPERVISOR,
	PCS_MODE_GUEST_KERNEL,
};

#define PCS_PID_UNKNOWN	0xffffffffu

struct pcs_sample {
	u64 ip;		/* the sampled address, sign-extended from bit 55 */
	u32 pid;	/* from CONTEXTIDR (the thread's kernel pid), or PCS_PID_UNKNOWN */
	u16 vmid;
	u8 el;		/* 0, 1 or 2: EL3 is never disclosed */
	u8 mode;	/* enum pcs_mode */
};

/*
 * The record: 32 bytes, little-endian, whatever the CPU's byte order.
 * Offsets:
 *   0 time (u64, perf clock of the event)   8 ip (u64)
 *  16 pid (u32)  20 cpu (u32)  24 vmid (u16)  26 el (u8)  27 mode (u8)
 *  28 magic (u32) PCS_RECORD_MAGIC: lets a decoder resynchronise
 */
#define PCS_RECORD_SIZE		32
#define PCS_RECORD_MAGIC	0x50435331u	/* "PCS1" */

struct pcs_record {
	u64 time;
	u32 cpu;
	struct pcs_sample s;
};

static inline void pcs_put_le(u8 *buf, u64 v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		buf[i] = (u8)(v >> (8 * i));
}

static inline u64 pcs_get_le(const u8 *buf, unsigned int bytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		v |= (u64)buf[i] << (8 * i);
	return v;
}

static inline void pcs_record_pack(const struct pcs_record *rec, u8 *buf)
{
	pcs_put_le(buf + 0, rec->time, 8);
	pcs_put_le(buf + 8, rec->s.ip, 8);
	pcs_put_le(buf + 16, rec->s.pid, 4);
	pcs_put_le(buf + 20, rec->cpu, 4);
	pcs_put_le(buf + 24, rec->s.vmid, 2);
	buf[26] = rec->s.el;
	buf[27] = rec->s.mode;
	pcs_put_le(buf + 28, PCS_RECORD_MAGIC, 4);
}

/* False, *rec untouched, when buf holds no record (no magic, a bad field). */
static inline bool pcs_record_unpack(const u8 *buf, struct pcs_record *rec)
{
	if (pcs_get_le(buf + 28, 4) != PCS_RECORD_MAGIC || buf[26] > 2 ||
	    buf[27] > PCS_MODE_GUEST_KERNEL)
		return false;
	rec->time = pcs_get_le(buf + 0, 8);
	rec->s.ip = pcs_get_le(buf + 8, 8);
	rec->s.pid = (u32)pcs_get_le(buf + 16, 4);
	rec->cpu = (u32)pcs_get_le(buf + 20, 4);
	rec->s.vmid = (u16)pcs_get_le(buf + 24, 2);
	rec->s.el = buf[26];
	rec->s.mode = buf[27];
	return true;
}

#endif /* PCSAMPLE_RECORD_H */
