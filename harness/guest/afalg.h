/* SPDX-License-Identifier: GPL-2.0 */
/*
 * afalg.h - minimal AF_ALG "rng" client used by the guest init (report and
 * bench modes). Bind to an rng by name, optionally seed it, read from it.
 * AF_ALG rng returns at most 128 bytes per recvmsg() (algif_rng MAXSIZE), so
 * afalg_read_full() loops until it has the requested length.
 */
#ifndef JTSC_AFALG_H
#define JTSC_AFALG_H

#include <stddef.h>
#include <sys/types.h>

struct afalg_rng {
	int tfm;	/* bound socket (transform) */
	int op;		/* accepted socket to read from */
};

/* Bind to rng @name and accept an op socket. 0 or -errno. */
int afalg_rng_open(struct afalg_rng *r, const char *name);

/* ALG_SET_KEY: seed the rng (needed by drbg/stdrng). 0 or -errno. */
int afalg_rng_seed(struct afalg_rng *r, const void *seed, size_t len);

/*
 * Read exactly @len bytes, looping over short reads. Returns the number of
 * bytes read (== len on success) or -errno if a read failed before @len
 * bytes were collected. *@calls (if non-NULL) counts read() calls made.
 */
ssize_t afalg_rng_read(struct afalg_rng *r, void *buf, size_t len,
		       unsigned int *calls);

void afalg_rng_close(struct afalg_rng *r);

/* "EINVAL" etc. for errno values, "E<num>" when unknown. */
const char *afalg_errname(int err);

#endif
