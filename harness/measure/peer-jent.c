// SPDX-License-Identifier: GPL-2.0
/*
 * peer-jent - what crypto/jitterentropy-kcapi.c gives crypto/jitterentropy.c,
 * in user space, for harness/measure/peer.c: allocation, the time stamp
 * (random_get_entropy(), the TSC on x86: rdtsc) and the SHA3-256
 * conditioning, done here with OpenSSL's EVP in the same steps as the
 * kernel's jent_hash_time() and jent_read_random_block().
 */
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include <openssl/evp.h>

typedef unsigned long long __u64;
typedef unsigned char u8;

#define DIGEST	32	/* SHA3_256_DIGEST_SIZE */

void *peer_jent_hash_alloc(void);
void peer_jent_hash_free(void *hash_state);
void *jent_kvzalloc(unsigned int len);
void jent_kvzfree(void *ptr, unsigned int len);
void *jent_zalloc(unsigned int len);
void jent_zfree(void *ptr);
void jent_get_nstime(__u64 *out);
int jent_hash_time(void *hash_state, __u64 time, u8 *addtl, unsigned int addtl_len,
		   __u64 hash_loop_cnt, unsigned int stuck);
int jent_read_random_block(void *hash_state, char *dst, unsigned int dst_len);

void *peer_jent_hash_alloc(void)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (ctx && !EVP_DigestInit_ex(ctx, EVP_sha3_256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		ctx = NULL;
	}
	return ctx;
}

void peer_jent_hash_free(void *hash_state)
{
	EVP_MD_CTX_free(hash_state);
}

void *jent_kvzalloc(unsigned int len)
{
	return calloc(1, len);
}

void jent_kvzfree(void *ptr, unsigned int len)
{
	if (ptr)
		memset(ptr, 0, len);
	free(ptr);
}

void *jent_zalloc(unsigned int len)
{
	return calloc(1, len);
}

void jent_zfree(void *ptr)
{
	free(ptr);
}

void jent_get_nstime(__u64 *out)
{
	*out = __rdtsc();
}

int jent_hash_time(void *hash_state, __u64 time, u8 *addtl, unsigned int addtl_len,
		   __u64 hash_loop_cnt, unsigned int stuck)
{
	EVP_MD_CTX *desc = EVP_MD_CTX_new();
	u8 intermediary[DIGEST] = { 0 };
	unsigned int len;
	__u64 j;
	int ok = desc != NULL;

	for (j = 0; ok && j < hash_loop_cnt; j++)
		ok = EVP_DigestInit_ex(desc, EVP_sha3_256(), NULL) &&
		     EVP_DigestUpdate(desc, intermediary, sizeof(intermediary)) &&
		     EVP_DigestUpdate(desc, addtl, addtl_len) &&
		     EVP_DigestFinal_ex(desc, intermediary, &len);
	EVP_MD_CTX_free(desc);
	ok = ok && EVP_DigestUpdate(hash_state, intermediary, sizeof(intermediary));
	if (stuck)
		time = 0;
	ok = ok && EVP_DigestUpdate(hash_state, &time, sizeof(time));
	memset(intermediary, 0, sizeof(intermediary));
	return ok ? 0 : -1;
}

int jent_read_random_block(void *hash_state, char *dst, unsigned int dst_len)
{
	u8 block[DIGEST];
	unsigned int len;
	int ok = EVP_DigestFinal_ex(hash_state, block, &len) &&
		 EVP_DigestInit_ex(hash_state, EVP_sha3_256(), NULL) &&
		 EVP_DigestUpdate(hash_state, block, sizeof(block));

	if (ok && dst_len)
		memcpy(dst, block, dst_len);
	memset(block, 0, sizeof(block));
	return ok ? 0 : -1;
}
