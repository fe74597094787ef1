/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/export.h>: there is no symbol table to export to. */
#ifndef _JTSC_USER_LINUX_EXPORT_H
#define _JTSC_USER_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

#endif /* _JTSC_USER_LINUX_EXPORT_H */
