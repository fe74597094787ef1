// SPDX-License-Identifier: GPL-2.0
/*
 * afalg.c - minimal AF_ALG "rng" client (see afalg.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_alg.h>

#include "afalg.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

int afalg_rng_bind(struct afalg_rng *r, const char *name)
{
	struct sockaddr_alg sa;
	int err;

	r->tfm = -1;
	r->op = -1;
	if (strlen(name) >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	strcpy((char *)sa.salg_type, "rng");
	strcpy((char *)sa.salg_name, name);

	r->tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (r->tfm < 0)
		return -errno;
	if (bind(r->tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		afalg_rng_close(r);
		return err;
	}
	return 0;
}

int afalg_rng_accept(struct afalg_rng *r)
{
	int err;

	r->op = accept4(r->tfm, NULL, NULL, SOCK_CLOEXEC);
	if (r->op < 0) {
		err = -errno;
		afalg_rng_close(r);
		return err;
	}
	return 0;
}

int afalg_rng_seed(struct afalg_rng *r, const void *seed, size_t len)
{
	if (setsockopt(r->tfm, SOL_ALG, ALG_SET_KEY, seed, len) < 0)
		return -errno;
	return 0;
}

ssize_t afalg_rng_read(struct afalg_rng *r, void *buf, size_t len,
		       unsigned int *calls)
{
	unsigned char *p = buf;
	size_t got = 0;
	unsigned int n = 0;
	ssize_t ret;

	do {
		ret = read(r->op, p + got, len - got);
		n++;
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (ret == 0 && len)
			break;	/* no progress: report the short count */
		got += ret;
	} while (got < len);

	if (calls)
		*calls = n;
	return ret < 0 ? ret : (ssize_t)got;
}

void afalg_rng_close(struct afalg_rng *r)
{
	if (r->op >= 0)
		close(r->op);
	if (r->tfm >= 0)
		close(r->tfm);
	r->op = -1;
	r->tfm = -1;
}

const char *afalg_errname(int err)
{
	static char buf[16];
	const char *s;

	if (err < 0)
		err = -err;
	s = strerrorname_np(err);
	if (s)
		return s;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}
