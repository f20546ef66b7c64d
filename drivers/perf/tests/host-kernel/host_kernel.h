/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-ins for the kernel APIs the driver's perf glue uses
 * (spe_core.c, spe_aux.c, spe_irq.c), so test_spe_glue.c can compile those
 * files unchanged and drive them against a recording fake backend and a
 * fake perf AUX handle; and those of the PC-sample PMU's callbacks and
 * sampling round (pcsample/pcsample_pmu.c, pcsample_round.c), driven by
 * test_pcsample_glue.c against a fake register frame.  Only what the glue touches is modelled; every
 * linux/<name>.h of this directory includes this one file.
 */
#ifndef SPE_HOST_KERNEL_H
#define SPE_HOST_KERNEL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/errno.h>

/* The uapi perf_event_attr and PERF_AUX_FLAG_* of the host's headers. */
#include_next <linux/perf_event.h>

#define __percpu
#define THIS_MODULE		NULL
#define IS_ENABLED(opt)		0
#define READ_ONCE(x)		(x)
#define WARN_ON_ONCE(c)		({ int c_ = !!(c); if (c_) host_kernel_warn(__FILE__, __LINE__); c_; })
#define min(a, b)		((a) < (b) ? (a) : (b))
#define container_of(p, t, m)	((t *)((char *)(p) - offsetof(t, m)))
#define dev_dbg(dev, ...)	((void)(dev))
#define dev_err_ratelimited(dev, ...)	host_kernel_log_err(__VA_ARGS__)
#define dev_err(dev, ...)	host_kernel_log_err(__VA_ARGS__)
#define KERN_ERR		""
#define LOGLEVEL_SCHED		-2
/* No format check here: the host's u64 is not the kernel's unsigned long long. */
#define __printf(a, b)
struct va_format { const char *fmt; va_list *va; };
#define vprintk_emit(facility, level, dev_info, fmt, args)	host_kernel_log_err(fmt)
#define dev_driver_string(dev)	((void)(dev), "arm_spe")
#define dev_name(dev)		((void)(dev), "spe-pmu")
/* Every message passes: the tests count them. */
struct ratelimit_state { int unused; };
#define DEFAULT_RATELIMIT_INTERVAL	0
#define DEFAULT_RATELIMIT_BURST		0
#define DEFINE_RATELIMIT_STATE(name, interval, burst)	struct ratelimit_state name = { 0 }
#define __ratelimit(rs)		((void)(rs), 1)
#define __iomem
#define U64_MAX			(~0ULL)
#define lower_32_bits(v)	((u32)(v))
#define upper_32_bits(v)	((u32)((v) >> 32))
#define is_power_of_2(n)	((n) != 0 && (((n) & ((n) - 1)) == 0))
#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE	KERNEL_VERSION(6, 1, 0)

void host_kernel_warn(const char *file, int line);
void host_kernel_log_err(const char *fmt, ...);

/* Memory */
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define GFP_KERNEL		0
#define VM_MAP			0
#define PAGE_KERNEL		0
struct page;
void *kzalloc_node(size_t size, int gfp, int node);
void *kzalloc(size_t size, int gfp);
void *kcalloc(size_t n, size_t size, int gfp);
void kfree(const void *p);
void *vmap(struct page **pages, unsigned int count, unsigned long flags, int prot);
void vunmap(const void *addr);
#define virt_to_page(p)		((struct page *)(p))
#define cpu_to_node(cpu)	((void)(cpu), 0)

/* CPUs */
int smp_processor_id(void);
#define raw_smp_processor_id()	smp_processor_id()
#define this_cpu_ptr(p)		(p)
typedef struct cpumask { unsigned long bits[1]; } cpumask_t;
static inline bool cpumask_test_cpu(int cpu, const cpumask_t *m)
{
	return m->bits[0] & (1UL << cpu);
}
#define for_each_cpu(cpu, mask)					\
	for ((cpu) = 0; (cpu) < 64; (cpu)++)				\
		if (cpumask_test_cpu((cpu), (mask)))
struct hlist_node { void *next, **pprev; };
struct task_struct;
struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action, void *data);
};

/*
 * Locks: a raw spinlock is a depth count, so a test can see it is held
 * where it must be and released on every path.
 */
typedef struct { int held; } raw_spinlock_t;
#define raw_spin_lock_init(l)	((l)->held = 0)
#define raw_spin_lock_irqsave(l, f)	\
	do { (f) = 0; if ((l)->held++) host_kernel_warn(__FILE__, __LINE__); } while (0)
#define raw_spin_unlock_irqrestore(l, f)	\
	do { (void)(f); if (--(l)->held) host_kernel_warn(__FILE__, __LINE__); } while (0)
typedef struct { int counter; } atomic_t;
#define atomic_read(a)		((a)->counter)
#define atomic_inc(a)		((a)->counter++)
#define atomic_dec(a)		((a)->counter--)

/* Time: the test's clock. */
u64 ktime_get_ns(void);
struct device { int id; };
struct platform_device { struct device dev; };
struct attribute_group;
bool perfmon_capable(void);

/* Interrupts */
typedef enum { IRQ_NONE = 0, IRQ_HANDLED = 1 } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

/*
 * What spe_compat.h's probe and timer shims name, declared only: the glue
 * under test calls neither (probe and the simulated unit are not compiled
 * here).
 */
extern const struct cpumask *cpu_possible_mask;
void cpumask_copy(struct cpumask *dst, const struct cpumask *src);
int platform_get_irq(struct platform_device *pdev, unsigned int num);
int irq_get_percpu_devid_partition(unsigned int irq, struct cpumask *affinity);
typedef int clockid_t;
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_REL_PINNED_HARD };
struct hrtimer { enum hrtimer_restart (*function)(struct hrtimer *timer); };
void hrtimer_init(struct hrtimer *timer, clockid_t clock, enum hrtimer_mode mode);

/* perf */
typedef struct { long long counter; } local64_t;
#define local64_read(l)		((l)->counter)
#define local64_set(l, v)	((l)->counter = (v))
#define local64_add(v, l)	((l)->counter += (v))

#define PERF_HES_STOPPED	0x01
#define PERF_HES_UPTODATE	0x02
#define PERF_EF_START		0x01
#define PERF_EF_RELOAD		0x02
#define PERF_EF_UPDATE		0x04
#define PERF_PMU_CAP_EXCLUSIVE	0x0010
#define PERF_PMU_CAP_ITRACE	0x0020
enum { perf_invalid_context = -1, perf_hw_context = 0, perf_sw_context };

struct perf_event;
struct module;

struct pmu {
	struct module *module;
	struct device *parent;
	int type;
	int capabilities;
	int task_ctx_nr;
	const struct attribute_group **attr_groups;
	int (*event_init)(struct perf_event *event);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	void *(*setup_aux)(struct perf_event *event, void **pages, int nr_pages,
			   bool overwrite);
	void (*free_aux)(void *aux);
};

struct hw_perf_event {
	u64 config;
	u64 sample_period;
	local64_t period_left;
	int state;
};

struct irq_work { unsigned int queued; };

struct perf_event {
	struct perf_event_attr attr;
	struct hw_perf_event hw;
	struct pmu *pmu;
	int cpu;
	/*
	 * perf core's own disable request and its work item: the glue must
	 * never touch them (test_spe_glue checks they keep their values;
	 * there is no irq_work_queue() here to link against).
	 */
	unsigned int pending_disable;
	struct irq_work pending_irq;
	local64_t count;
	u64 (*clock)(void);
	void (*destroy)(struct perf_event *event);
};

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

static inline bool has_branch_stack(struct perf_event *event)
{
	return event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK;
}

struct perf_output_handle {
	struct perf_event *event;
	void *aux_priv;		/* the fake's: setup_aux's buffer */
	unsigned long head;
	unsigned long size;
	unsigned long wakeup;
	u64 aux_flags;
};

void *perf_aux_output_begin(struct perf_output_handle *h, struct perf_event *e);
void perf_aux_output_end(struct perf_output_handle *h, unsigned long size);
int perf_aux_output_skip(struct perf_output_handle *h, unsigned long size);
void *perf_get_aux(struct perf_output_handle *h);
void perf_aux_output_flag(struct perf_output_handle *h, u64 flags);

#endif /* SPE_HOST_KERNEL_H */
