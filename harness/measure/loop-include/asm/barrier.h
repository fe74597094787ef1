/* Empty: tsc-jitter-user.h gives asm/tsc_jitter.h what it takes from <asm/barrier.h>. */
