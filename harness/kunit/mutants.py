#!/usr/bin/env python3
"""mutants.py - what the KUnit cases of jitter_tsc catch, shown by mutation.

Each mutant below is a small change to crypto/jitter_tsc_kcapi.c or
crypto/jitter_tsc_core.c of the kind of bug a case is there to catch. For each, a hard-linked copy of build/linux
(build/mutants/linux, the mutated file written anew so that build/linux is
never touched) is built with kunit.py and the named cases are run; the
mutant is killed when the build succeeds and at least one of those cases
fails. The unmutated tree runs first and must pass the same cases. Exits
non-zero if the baseline fails or a mutant survives.

Usage: mutants.py [NAME...]   (default: all; `make mutants`)
Needs `make tree` first. Each mutant rebuilds one object of
crypto/jitter_tsc.o and relinks (ccache keeps the rest); about two minutes each under TCG here.
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BUILD = os.path.join(ROOT, 'build')
LINUX = os.path.join(BUILD, 'linux')
SRC = os.path.join(BUILD, 'mutants', 'linux')
OBJ = os.path.join(BUILD, 'mutants', 'obj-kunit')
OUT = os.path.join(ROOT, 'out', 'mutants')
LOCK = '/tmp/jtsc-build.lock'
KCAPI = 'crypto/jitter_tsc_kcapi.c'
CORE = 'crypto/jitter_tsc_core.c'

MUTANTS = [
    {
        'name': 'credit-doubled',
        'what': 'every pull and block credited twice what its words carry',
        'cases': ['jtsc_credit_pinned_test'],
        'file': KCAPI,
        'old': 'return words * jtsc_word_credit(rng, rng->active);',
        'new': 'return 2 * words * jtsc_word_credit(rng, rng->active);',
    },
    {
        'name': 'block-words-before-start',
        'what': 'the words of a block counted at the step of the collector '
                'active before the shard (re)started one: after a failover, '
                'a timer block of 22 words (88 bits) at the speculative step',
        'cases': ['jtsc_failover_test'],
        'file': KCAPI,
        'old': '\t\tret = jtsc_ready_request(rng);\n'
               '\t\t/*\n'
               '\t\t * After jtsc_ready_request(): what a word carries is that of\n'
               '\t\t * the collector it readied, at the step it chose.\n'
               '\t\t */\n'
               '\t\tif (!ret) {\n'
               '\t\t\t/* All that is in the pool now predates this request. */\n'
               '\t\t\tif (first)\n'
               '\t\t\t\trng->stale = rng->tested + rng->pending;\n'
               '\t\t\twords = DIV_ROUND_UP(JTSC_BLOCK_CREDIT, jtsc_word_credit(rng, rng->active));\n',
        'new': '\t\tif (rng->health[rng->active].params)\n'
               '\t\t\twords = DIV_ROUND_UP(JTSC_BLOCK_CREDIT, jtsc_word_credit(rng, rng->active));\n'
               '\t\tret = jtsc_ready_request(rng);\n'
               '\t\tif (!ret) {\n'
               '\t\t\tif (first)\n'
               '\t\t\t\trng->stale = rng->tested + rng->pending;\n'
               '\t\t\twords = words ?: DIV_ROUND_UP(JTSC_BLOCK_CREDIT, jtsc_word_credit(rng, rng->active));\n',
    },
    {
        'name': 'pending-dropped',
        'what': 'words made but not yet released are lost when tested words '
                'are taken, instead of carried to the next call',
        'cases': ['jtsc_interleave_test'],
        'file': KCAPI,
        'old': 'unsigned int left = rng->tested + rng->pending - words;',
        'new': 'unsigned int left = rng->tested - min(words, rng->tested);',
    },
    {
        'name': 'no-failover',
        'what': 'a permanent failure ends all output although the timer '
                'collector is left (the behaviour before failover)',
        'cases': ['jtsc_failover_test', 'jtsc_crypto_failover_test'],
        'file': KCAPI,
        'old': '\tfirst = !test_and_set_bit(src, &g->dead);\n\tnext = jtsc_first_alive(g);\n',
        'new': '\tfirst = !test_and_set_bit(src, &g->dead);\n\tnext = JTSC_NR_SOURCES;\n',
    },
    {
        'name': 'dead-ignored',
        'what': 'an instance keeps serving a collector that another instance '
                'found dead',
        'cases': ['jtsc_failover_test'],
        'file': KCAPI,
        'old': 'if (likely(rng->started && !test_bit(rng->active, &rng->group->dead)))',
        'new': 'if (likely(rng->started))',
    },
    {
        'name': 'dead-checked-per-block',
        'what': 'the group asked whether the collector is dead only when a '
                'block starts, not after each batch: a block is still filled '
                'from a collector another instance found dead',
        'cases': ['jtsc_failover_midfill_test'],
        'file': KCAPI,
        'old': '\t\tret = jtsc_add_words(rng);\n'
               '\t\tif (!ret)\n'
               '\t\t\tret = jtsc_ready(rng);\n',
        'new': '\t\tret = jtsc_add_words(rng);\n',
    },
    {
        'name': 'consume-unlocked',
        'what': 'a block hashed under one hold of the instance lock and its '
                'words dropped under another: two readers of one shard can '
                'be given the same block, each reader\'s own blocks still differ',
        'cases': ['jtsc_crypto_threads_test'],
        'file': KCAPI,
        'old': '\t\tif (!ret) {\n'
               '\t\t\tsha256((const u8 *)rng->pool, words * sizeof(rng->pool[0]), block);\n'
               '\t\t\tjtsc_consume(rng, words, jtsc_credit(rng, words));\n'
               '\t\t}\n'
               '\t\trng->last_used = jiffies;\n'
               '\t\tmutex_unlock(&rng->lock);\n',
        'new': '\t\tif (!ret)\n'
               '\t\t\tsha256((const u8 *)rng->pool, words * sizeof(rng->pool[0]), block);\n'
               '\t\trng->last_used = jiffies;\n'
               '\t\tmutex_unlock(&rng->lock);\n'
               '\t\tif (!ret) {\n'
               '\t\t\tschedule_timeout_uninterruptible(1);\n'
               '\t\t\tmutex_lock(&rng->lock);\n'
               '\t\t\twords = min(words, rng->tested);\n'
               '\t\t\tjtsc_consume(rng, words, jtsc_credit(rng, words));\n'
               '\t\t\tmutex_unlock(&rng->lock);\n'
               '\t\t}\n',
    },
    {
        'name': 'estimate-ignored',
        'what': 'every startup test credits the ceiling, whatever its '
                'samples\' estimate (a compile-time credit, again)',
        'cases': ['jtsc_known_entropy_test'],
        'file': KCAPI,
        'old': '\tstep = jtsc_ladder_pick(&e, jtsc_collectors[src].margin);\n',
        'new': '\tstep = e.h_min ? jtsc_ladder_steps - 1 : -1;\n',
    },
    {
        'name': 'step-rewound',
        'what': 'every startup test estimates its own samples again, the '
                'draws a reader can repeat by opening and closing sockets',
        'cases': ['jtsc_step_kept_test'],
        'file': KCAPI,
        'old': '\treturn (w & 0xff) == JTSC_STEP_REFUSED ? -ENODEV : w & 0xff;\n',
        'new': '\treturn -ENOENT;\n',
    },
    {
        'name': 'generation-kept',
        'what': 'after a VM fork, suspend or hibernation the group keeps the '
                'step estimated on the machine before',
        'cases': ['jtsc_step_kept_test', 'jtsc_machine_changed_test'],
        'file': KCAPI,
        'old': '\tif (w >> 8 != gen || (w & 0xff) == JTSC_STEP_UNSET)\n',
        'new': '\tif ((w & 0xff) == JTSC_STEP_UNSET)\n',
    },
    {
        'name': 'no-new-startup-test',
        'what': 'after an intermittent failure the collector goes on without '
                'a new startup test of fresh samples',
        'cases': ['jtsc_straddle_test'],
        'file': KCAPI,
        'old': '\t\trng->started = false;\n\t\trng->restart = true;\n',
        'new': '\t\trng->restart = true;\n',
    },
    {
        'name': 'higher-differences-off',
        'what': 'only the first difference is predicted: a cubic or quartic '
                'counter passes the health tests',
        'cases': ['jtsc_det_health_test'],
        'file': CORE,
        'old': '\tfor (k = 1; k <= JTSC_NR_DIFF; k++) {\n',
        'new': '\tfor (k = 1; k <= 1; k++) {\n',
    },
    {
        'name': 'stale-kept',
        'what': 'words made before a request are not dropped: after a '
                'snapshot is restored, the first block is made of the saved '
                'pool alone, the same in every clone',
        'cases': ['jtsc_fresh_test', 'jtsc_output_model_test'],
        'file': KCAPI,
        'old': '\tif (rng->stale > keep)\n',
        'new': '\tif (rng->stale > keep + JTSC_POOL_WORDS)\n',
    },
    {
        'name': 'park-leaks-buffer',
        'what': 'a parked instance forgets its buffer without freeing it',
        'cases': ['jtsc_buffer_lifetime_test'],
        'file': KCAPI,
        'old': '\trng->buf.pass = 0;\n\tvfree(mem);\n',
        'new': '\trng->buf.pass = 0;\n\t(void)mem;\n',
    },
    {
        'name': 'park-keeps-pool',
        'what': 'a parked instance frees its buffer but keeps its pool words',
        'cases': ['jtsc_buffer_lifetime_test'],
        'file': KCAPI,
        'old': '\tjtsc_wipe(rng);\n\trng->started = false;\n\tjtsc_free_buf(rng);\n',
        'new': '\trng->started = false;\n\tjtsc_free_buf(rng);\n',
    },
    {
        'name': 'idle-ignored',
        'what': 'an instance is parked however recently it was used',
        'cases': ['jtsc_buffer_lifetime_test'],
        'file': KCAPI,
        'old': '\t\tif (time_before(jiffies, rng->last_used + idle)) {\n',
        'new': '\t\tif (idle && false) {\n',
    },
    {
        'name': 'eagain-to-reader',
        'what': 'a crypto_rng reader is given -EAGAIN for a failure the '
                'kernel has already recovered from',
        'cases': ['jtsc_crypto_intermittent_test', 'jtsc_crypto_failover_test'],
        'file': KCAPI,
        'old': '\twhile ((ret = jtsc_rng_generate(rng, dst, dlen)) == -EAGAIN) {\n',
        'new': '\twhile ((ret = jtsc_rng_generate(rng, dst, dlen)) == -EAGAIN && !dlen) {\n',
    },
]


def die(msg):
    sys.exit('mutants: error: ' + msg)


def lay(rel, text):
    """build/mutants/linux: build/linux hard-linked, @rel written anew as @text."""
    if not os.path.isdir(SRC):
        os.makedirs(os.path.dirname(SRC), exist_ok=True)
        subprocess.run(['cp', '-al', LINUX, SRC], check=True)
    path = os.path.join(SRC, rel)
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old == text and os.stat(path).st_nlink == 1:
        return
    os.unlink(path)     # never write through the hard link into build/linux
    with open(path, 'w') as f:
        f.write(text)


def run(name, cases):
    """kunit.py on the mutant tree, once per case of @cases (the kernel's filter
    takes one glob); (built, passed, failed, failed cases, logs)."""
    built, passed, failed, bad, logs = True, 0, 0, [], []
    for case in cases:
        ok, p, f, log = run_case(name + '.' + case, case)
        built, passed, failed = built and ok, passed + p, failed + f
        bad += failed_cases(log)
        logs.append(os.path.relpath(log, ROOT))
    return built, passed, failed, sorted(set(bad)), logs


def run_case(name, case):
    """kunit.py on the mutant tree with @case; (built, passed, failed, log)."""
    os.makedirs(OUT, exist_ok=True)
    log = os.path.join(OUT, name + '.log')
    env = dict(os.environ, CCACHE_BASEDIR=BUILD, CCACHE_NOHASHDIR='1',
               CCACHE_MAXSIZE=os.environ.get('CCACHE_MAXSIZE', '5G'))
    cmd = ['flock', LOCK, 'python3', 'tools/testing/kunit/kunit.py', 'run',
           '--arch=x86_64', '--build_dir=' + OBJ, '--jobs=' + os.environ.get('JOBS', '2'),
           '--kunitconfig=' + os.path.join(ROOT, 'harness', 'config', 'jitter_tsc.kunitconfig'), '--qemu_args=-smp 2',
           '--timeout=1200']
    if shutil.which('ccache'):
        cmd += ['--make_options', 'CC=ccache gcc']
    if os.environ.get('JTSC_LOCKED'):
        cmd = cmd[2:]   # the caller holds the build lock already
    cmd.append('jitter_tsc.' + case)
    with open(log, 'w') as f:
        subprocess.run(cmd, cwd=SRC, env=env, stdout=f, stderr=subprocess.STDOUT)
    text = open(log, errors='replace').read()
    m = re.search(r'Ran (\d+) tests: (.*)', text)
    if not m:
        return False, 0, 0, log
    counts = dict((k, int(v)) for k, v in re.findall(r'(\w+): (\d+)', m.group(2)))
    return True, counts.get('passed', 0), counts.get('failed', 0) + counts.get('crashed', 0), log


def failed_cases(log):
    text = open(log, errors='replace').read()
    return sorted(set(re.findall(r'\[FAILED\] (jtsc_\w+)', text)))


def main():
    if not os.path.isfile(os.path.join(LINUX, '.jtsc-base')):
        die("no build/linux: run 'make tree' first")
    base = {}
    for rel in (KCAPI, CORE):
        with open(os.path.join(LINUX, rel)) as f:
            base[rel] = f.read()
    names = sys.argv[1:] or [m['name'] for m in MUTANTS]
    chosen = [m for m in MUTANTS if m['name'] in names]
    if len(chosen) != len(names):
        die('unknown mutant; known: ' + ' '.join(m['name'] for m in MUTANTS))
    for m in chosen:
        if base[m['file']].count(m['old']) != 1:
            die(m['name'] + ': the code it mutates is not in ' + m['file'] + ' once')

    # The link copy is laid anew, so that it is build/linux as it is now.
    shutil.rmtree(SRC, ignore_errors=True)
    cases = sorted({c for m in chosen for c in m['cases']})
    for rel in base:
        lay(rel, base[rel])
    built, passed, failed, _, logs = run('baseline', cases)
    base_ok = built and passed > 0 and failed == 0
    print('%-26s %s: %d rows passed, %d failed, of %s' %
          ('baseline', 'ok' if base_ok else 'FAILED', passed, failed, ', '.join(cases)))
    killed = 0
    for m in chosen:
        lay(m['file'], base[m['file']].replace(m['old'], m['new']))
        built, passed, failed, bad, logs = run(m['name'], m['cases'])
        dead = built and failed > 0
        killed += dead
        print('%-26s %s: %s' % (m['name'], 'killed' if dead else
                                'SURVIVED' if built else 'BUILD OR RUN FAILED', m['what']))
        print('%-26s   by %s (%d of %d rows failed; %s)' %
              ('', ', '.join(bad) or '-', failed, passed + failed, ' '.join(logs)))
        lay(m['file'], base[m['file']])
    for rel in base:
        lay(rel, base[rel])
    print('mutants: %d of %d killed, baseline %s' %
          (killed, len(chosen), 'passed' if base_ok else 'FAILED'))
    return 0 if base_ok and killed == len(chosen) else 1


if __name__ == '__main__':
    sys.exit(main())
