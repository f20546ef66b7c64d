/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: see ../host_kernel.h. */
#include "host_kernel.h"
