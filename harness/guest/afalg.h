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

/*
 * Order of use: afalg_rng_bind(), optionally afalg_rng_seed(), then
 * afalg_rng_accept(); af_alg refuses ALG_SET_KEY (-EBUSY) once an op socket
 * has been accepted. All return 0 or -errno; on error bind and accept close
 * what they opened.
 */
int afalg_rng_bind(struct afalg_rng *r, const char *name);

/* ALG_SET_KEY: seed the rng (drbg/stdrng will not generate unseeded). */
int afalg_rng_seed(struct afalg_rng *r, const void *seed, size_t len);

int afalg_rng_accept(struct afalg_rng *r);

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
