/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The event names of a perf.data file, from its EVENT_DESC feature section
 * (perf.data-file-format.txt): what perf script pads every event name to.
 */
#ifndef SPE_DECODE_CLI_EVENT_DESC_H
#define SPE_DECODE_CLI_EVENT_DESC_H

/*
 * The length of the longest event name @path's EVENT_DESC section lists
 * (each event as perf record named it: "arm_spe/ts_enable=1/u",
 * "sched:sched_switch", "dummy:u"); 0 when the file has no such section
 * (a file made without it), is no regular file (a pipe or FIFO, which
 * only the decode reads) or the section does not parse.
 */
int spe_event_desc_name_width(const char *path);

#endif /* SPE_DECODE_CLI_EVENT_DESC_H */
