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
    # The core: credit, health tests, release, a collector's life
    {
        'name': 'no-window-first',
        'what': "the window's first sample predicts nothing: a source that falls "
                "to the credit passes the startup test's 12288 samples",
        'cases': ['jtsc_health_guard_test'],
        'file': CORE,
        'old': 'JTSC_PRED_FIRST, h->pred_seen && sample == h->first)',
        'new': 'JTSC_PRED_FIRST, false)',
    },
    {
        'name': 'no-window-difference',
        'what': "the window's first difference predicts nothing: a stepping "
                "source at the credit passes",
        'cases': ['jtsc_health_guard_test'],
        'file': CORE,
        'old': 'h->pred_seen && diff == h->first_diff)',
        'new': 'false)',
    },
    {
        'name': 'no-step-lower',
        'what': 'an intermittent failure restarts the collector at the same '
                'step: a source at twice the credit keeps it',
        'cases': ['jtsc_core_failures_test'],
        'file': CORE,
        'old': '\tl->demoted++;\n',
        'new': '',
    },
    {
        'name': 'no-floor',
        'what': 'a chunk faster than the Rowhammer floor waits for nothing',
        'cases': ['jtsc_floor_test'],
        'file': CORE,
        'old': '\treturn ns < floor ? floor - ns : 0;',
        'new': '\treturn 0;',
    },
    {
        'name': 'credit-doubled',
        'what': 'every word handed out credited twice what it carries',
        'cases': ['jtsc_core_words_test', 'jtsc_output_model_test', 'jtsc_pull_test'],
        'file': CORE,
        'old': '\tunsigned int credit = words * jtsc_word_credit(c);',
        'new': '\tunsigned int credit = 2 * words * jtsc_word_credit(c);',
    },
    {
        'name': 'cutoff-one-late',
        'what': 'every intermittent cutoff reached one sample late',
        'cases': ['jtsc_health_rct_test', 'jtsc_health_apt_test'],
        'file': CORE,
        'old': '\tif (unlikely(count == cutoff))',
        'new': '\tif (unlikely(count == cutoff + 1))',
    },
    {
        'name': 'no-higher-differences',
        'what': 'only the first difference predicted: a counter whose step '
                'grows (a quadratic or cubic ramp) goes unseen',
        'cases': ['jtsc_det_health_test'],
        'file': CORE,
        'old': '\tfor (k = 1; k <= JTSC_NR_DIFF; k++) {',
        'new': '\tfor (k = 1; k <= 1; k++) {',
    },
    {
        'name': 'no-lags',
        'what': 'the lag predictors see nothing: a periodic counter goes unseen',
        'cases': ['jtsc_det_health_test', 'jtsc_det_startup_test'],
        'file': CORE,
        'old': '\thit = jtsc_lag_hits(h, sample);',
        'new': '\thit = 0;',
    },
    {
        'name': 'release-unheld',
        'what': 'a closing window releases every pending word, those a run '
                'still going reaches into included',
        'cases': ['jtsc_det_operation_test', 'jtsc_core_words_test'],
        'file': CORE,
        'old': '\tunsigned int held = DIV_ROUND_UP(jtsc_health_hold(&l->health) + JTSC_MAX_LAG,',
        'new': '\tunsigned int held = 0 * DIV_ROUND_UP(jtsc_health_hold(&l->health) + JTSC_MAX_LAG,',
    },
    {
        'name': 'release-every-word',
        'what': 'words released as they are made, before their window closes',
        'cases': ['jtsc_core_window_test', 'jtsc_det_operation_test'],
        'file': CORE,
        'old': '\t\tif (!l->health.pred_seen)\n\t\t\tjtsc_release(c, l);',
        'new': '\t\tjtsc_release(c, l);',
    },
    {
        'name': 'failures-never-reset',
        'what': 'intermittent failures counted forever, not since the last '
                'released window: a healthy source is retired in the end',
        'cases': ['jtsc_core_failures_test'],
        'file': CORE,
        'old': '\tc->pending = held;\n\tl->failures = 0;',
        'new': '\tc->pending = held;',
    },
    {
        'name': 'intermittent-forever',
        'what': 'intermittent failures in a row never retire a collector',
        'cases': ['jtsc_core_failures_test'],
        'file': CORE,
        'old': '\tif (res == JTSC_HEALTH_PERMANENT || ++l->failures >= JTSC_MAX_INTERMITTENT)\n'
               '\t\tl->phase = JTSC_DEAD;\n\telse',
        'new': '\tif (res == JTSC_HEALTH_PERMANENT || ++l->failures >= 100)\n'
               '\t\tl->phase = JTSC_DEAD;\n\telse',
    },
    {
        'name': 'refusal-retires',
        'what': 'a startup test that fails retires the collector (the '
                'behaviour any reader could wind down)',
        'cases': ['jtsc_det_startup_test', 'jtsc_rng_init_test', 'jtsc_refused_test'],
        'file': CORE,
        'old': '\t\tl->phase = JTSC_REFUSED;',
        'new': '\t\tl->phase = JTSC_DEAD;',
    },
    {
        'name': 'backoff-flat',
        'what': 'the backoff of a refused collector does not grow',
        'cases': ['jtsc_core_backoff_test', 'jtsc_det_startup_test'],
        'file': CORE,
        'old': 'min_t(unsigned int, 2 * l->backoff, JTSC_BACKOFF_MAX)',
        'new': 'min_t(unsigned int, l->backoff, JTSC_BACKOFF_MAX)',
    },
    {
        'name': 'backoff-ignored',
        'what': 'a refused collector is picked again during its backoff',
        'cases': ['jtsc_core_backoff_test', 'jtsc_det_startup_test', 'jtsc_refused_test'],
        'file': CORE,
        'old': 'if (l->phase == JTSC_REFUSED && (long)(now - l->retry_at) < 0) {',
        'new': 'if (l->phase == JTSC_REFUSED && 0) {',
    },
    {
        'name': 'death-forgotten',
        'what': 'a park on the same machine brings a dead collector back',
        'cases': ['jtsc_core_failures_test'],
        'file': CORE,
        'old': '\t\tif (new_machine || l->phase == JTSC_RUNNING || l->phase == JTSC_RESTART) {',
        'new': '\t\tif (new_machine || l->phase != JTSC_REFUSED) {',
    },
    {
        'name': 'death-kept-on-new-machine',
        'what': 'a collector retired on one machine stays retired on the next '
                '(a VM fork or resume), which makes new estimates',
        'cases': ['jtsc_core_failures_test'],
        'file': CORE,
        'old': '\t\tif (new_machine || l->phase == JTSC_RUNNING || l->phase == JTSC_RESTART) {',
        'new': '\t\tif ((new_machine && l->phase != JTSC_DEAD) || l->phase == JTSC_RUNNING || l->phase == JTSC_RESTART) {',
    },
    {
        'name': 'stale-kept',
        'what': 'a request draws on words made before it began (a clone of '
                'the machine predicts its first block)',
        'cases': ['jtsc_core_words_test', 'jtsc_output_model_test'],
        'file': CORE,
        'old': '\tif (old > keep)',
        'new': '\tif (0)',
    },
    {
        'name': 'fold-bit-0',
        'what': 'the LFSR takes bit 0 of each input word only (the posted fold())',
        'cases': ['jtsc_lfsr_kat_test', 'jtsc_lfsr_every_bit_test'],
        'file': CORE,
        'old': '((fb ^ (rev >> (64 - m))) & GENMASK_ULL(m - 1, 0))',
        'new': '((fb ^ ((rev >> 63) << (m - 1))) & GENMASK_ULL(m - 1, 0))',
    },
    {
        'name': 'counter-slow-ignored',
        'what': 'a counter trapped by a hypervisor passes the counter check',
        'cases': ['jtsc_counter_check_test'],
        'file': CORE,
        'old': '\treturn c->read_ns > JTSC_COUNTER_MAX_READ_NS ? "slow to read" : NULL;',
        'new': '\treturn NULL;',
    },
    {
        'name': 'counter-coarse-ignored',
        'what': 'a counter that steps by more than a read passes the check',
        'cases': ['jtsc_counter_check_test'],
        'file': CORE,
        'old': '\tif (c->step * JTSC_COUNTER_READS > prev - first)',
        'new': '\tif (0)',
    },
    # The glue
    {
        'name': 'estimate-highest-window',
        'what': "the generation's step picked from its richest window, not "
                'the median of three',
        'cases': ['jtsc_estimate_median_test'],
        'file': KCAPI,
        'old': '*mid = &e[JTSC_EST_WINDOWS / 2];',
        'new': '*mid = &e[JTSC_EST_WINDOWS - 1];',
    },
    {
        'name': 'refusal-estimated-again',
        'what': 'an estimate under the floor made again by the next startup '
                "test: readers draw until the estimator's upper tail passes",
        'cases': ['jtsc_refused_test'],
        'file': KCAPI,
        'old': ['\tif (step == -ENOENT) {',
                'test_and_clear_bit(src, &g->want) && jtsc_group_step(g, src) == -ENOENT'],
        'new': ['\tif (step < 0) {',
                'test_and_clear_bit(src, &g->want) && jtsc_group_step(g, src) < 0'],
    },
    {
        'name': 'machine-change-ignored',
        'what': 'an instance serves on after a VM fork, with the step and '
                'pool of the machine it was',
        'cases': ['jtsc_step_kept_test', 'jtsc_refused_test'],
        'file': KCAPI,
        'old': '\tif (rng->generation != atomic_read(&rng->group->generation))\n\t\tjtsc_park(rng);',
        'new': '\tif (0)\n\t\tjtsc_park(rng);',
    },
    {
        'name': 'no-fresh-words',
        'what': "a request's first block made from words of earlier requests",
        'cases': ['jtsc_output_model_test'],
        'file': KCAPI,
        'old': '\t\t\tjtsc_core_begin_block(',
        'new': '\t\t\tif (0)\n\t\t\t\tjtsc_core_begin_block(',
    },
    {
        'name': 'first-block-fresh-only',
        'what': "a request's later blocks made from words released before "
                'they began (a VM cloned mid-request repeats them)',
        'cases': ['jtsc_output_model_test'],
        'file': KCAPI,
        'old': '\t\tret = jtsc_words(rng, 0, JTSC_FRESH_CREDIT);',
        'new': '\t\tret = jtsc_words(rng, 0, done ? 0 : JTSC_FRESH_CREDIT);',
    },
    {
        'name': 'pull-no-failover',
        'what': 'a pull or block ends on a failing collector instead of going '
                'on with the next (random.c would fall back to the stock path)',
        'cases': ['jtsc_instance_death_test', 'jtsc_buffer_test'],
        'file': KCAPI,
        'old': '\t} while (ret == -EAGAIN && ++retries < JTSC_MAX_RETRIES && !signal_pending(current));',
        'new': '\t} while (0);',
    },
    {
        'name': 'block-credit-halved',
        'what': 'an output block fed only as much credit as it emits',
        'cases': ['jtsc_output_model_test'],
        'file': KCAPI,
        'old': '\tJTSC_BLOCK_CREDIT = (2 * JTSC_BLOCK_SIZE * 8) << JTSC_ENTROPY_SHIFT,',
        'new': '\tJTSC_BLOCK_CREDIT = (JTSC_BLOCK_SIZE * 8) << JTSC_ENTROPY_SHIFT,',
    },
    {
        'name': 'buffer-kept',
        'what': 'the speculative buffer kept after failing over to the timer',
        'cases': ['jtsc_buffer_test'],
        'file': KCAPI,
        'old': '\tif (now != JTSC_RUNNING || src != JTSC_SRC_SPEC)\n',
        'new': '\tif (now != JTSC_RUNNING)\n',
    },
]

def pairs(m):
    """(old, new) of each change @m makes: one, or several in lists."""
    if isinstance(m['old'], list):
        return list(zip(m['old'], m['new']))
    return [(m['old'], m['new'])]


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
        for old in pairs(m):
            if base[m['file']].count(old[0]) != 1:
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
        text = base[m['file']]
        for old, new in pairs(m):
            text = text.replace(old, new)
        lay(m['file'], text)
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
