/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: see ../kshim.h. */
#include "kshim.h"
