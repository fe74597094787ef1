/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <kunit/visibility.h>, as without
 * CONFIG_KUNIT except that VISIBLE_IF_KUNIT symbols stay global, so that
 * user-space tests reach them as KUnit does.
 */
#ifndef _JTSC_USER_KUNIT_VISIBILITY_H
#define _JTSC_USER_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

/* ... and jitter_tsc_internal.h declares them, as under CONFIG_KUNIT */
#define CONFIG_KUNIT		1
#define IS_ENABLED(option)	(option)

#endif /* _JTSC_USER_KUNIT_VISIBILITY_H */
