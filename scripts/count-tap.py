#!/usr/bin/python3
"""Judge a TAP stream: print "PASSED FAILED SKIPPED" and fail closed.

usage: count-tap.py [--manifest FILE --variant NAME] FILE

Reads TAP 14 / KTAP as make check produces it: results may nest, either
by KTAP's four-space indentation or by kselftest's "# " prefix (the
kselftest runner prefixes each program's own TAP with "# "). A subtest's
results come before the result of its parent.

Every leaf result counts once: "ok" passes, "not ok" fails, a SKIP
directive (after the first unescaped "#", any case, as TAP 14 says)
skips. A parent counts only when it says "not ok" and none of its children
failed (the program crashed or timed out after some results), or when it
is itself skipped; a parent whose subtest has no result fails. Besides
failing results, each of these is one failure: a group of results with no
plan or a plan that does not match its results, a result number out of
sequence or repeated, results left without their parent at the end (a
truncated stream), "Bail out!", a stream with no result at all, and a
skip that the manifest does not allow.

With --manifest, the leaf results are checked against the list of tests
that must report on kernel variant NAME (see selftests/manifest): a test
that does not report fails, a test that reports twice fails, a test that
is not listed fails, and a skip (or kselftest's XFAIL, XPASS) fails unless
the test's line in the manifest gives a reason that the reported reason
contains. Without a manifest no skip is allowed. "not ok" always fails,
whatever its directive; "ok # TODO" passes.

Each problem is printed on stderr as "FILE:LINE: problem". A failing
result is followed there by its diagnostics (the comment lines just
before it, at most DIAG_LINES of them), so that a log that shows only
stderr still says why.
"""
import re
import sys

DIAG_LINES = 40

PREFIX_UNIT = re.compile(r'(# |#(?=$)|    )')
VERSION = re.compile(r'K?TAP version \d+$')
PLAN = re.compile(r'1\.\.(\d+)(\s*#.*)?$')
RESULT = re.compile(r'(not ok|ok)(?:\s+(\d+))?(?:\s+|$)(.*)$')
# TAP 14: "SKIP" or "TODO" and any non-space after it ("# SKIPPED",
# "# Skipping: why"), in any case; kselftest's XFAIL and XPASS as words.
DIRECTIVE = re.compile(r'\s*(?:(skip|todo)[^\s:]*|(xfail|xpass)(?=[\s:]|$)):?\s*(.*)$',
                       re.IGNORECASE)


class Result:
    """One test point and the results nested under it."""

    def __init__(self, line, ok, desc, directive, reason):
        self.line = line
        self.ok = ok
        self.desc = desc
        self.directive = directive      # None, skip, todo, xfail, xpass
        self.reason = reason
        self.children = []
        self.has_subtest = False


class Group:
    """The results and plan at one depth between two parents."""

    def __init__(self, line):
        self.line = line
        self.plan = None
        self.results = []


def split_directive(text):
    """Split "desc # SKIP why": the description ends at the first
    unescaped '#' that follows whitespace (or starts the text); what
    follows is a SKIP or TODO directive, or a comment."""
    m = re.search(r'(?:^|(?<=\s))(?<!\\)#', text)
    if not m:
        return text, None, None
    desc, rest = text[:m.start()], text[m.end():]
    d = DIRECTIVE.match(rest)
    if not d:
        return desc, None, None
    return desc, (d.group(1) or d.group(2)).lower(), d.group(3).strip()


def normalize(desc):
    desc = desc.strip()
    if desc.startswith('- '):
        desc = desc[2:]
    return desc.replace('\\#', '#').strip()


def split_prefix(line):
    """Return (depth, content) when the content is a TAP line."""
    depth, pos = 0, 0
    while True:
        content = line[pos:]
        if VERSION.match(content) or PLAN.match(content) or \
                RESULT.match(content) or content.startswith('Bail out!'):
            return depth, content
        m = PREFIX_UNIT.match(line, pos)
        if not m:
            return None, None
        depth += 1
        pos = m.end()


class Judge:
    def __init__(self, name):
        self.name = name
        self.groups = {}
        self.problems = []

    def problem(self, line, text):
        self.problems.append(f'{self.name}:{line}: {text}')

    def group(self, depth, line):
        if depth not in self.groups:
            self.groups[depth] = Group(line)
        return self.groups[depth]

    def close(self, group, where):
        if group.plan is None:
            self.problem(group.line, f'results without a plan ({where})')
        elif group.plan != len(group.results):
            self.problem(group.line, f'plan 1..{group.plan} but '
                         f'{len(group.results)} results ({where})')

    def take_children(self, depth, parent):
        """Attach every open group below DEPTH to PARENT."""
        for d in sorted(k for k in self.groups if k > depth):
            g = self.groups.pop(d)
            if d == depth + 1:
                self.close(g, f'subtest of "{parent.desc}"')
                parent.children = g.results
                parent.has_subtest = True
            else:
                self.problem(g.line, f'results at depth {d} with no parent')
                parent.children += g.results

    def feed(self, lineno, line):
        depth, content = split_prefix(line.rstrip('\n'))
        if depth is None:
            return
        if content.startswith('Bail out!'):
            self.problem(lineno, content)
            return
        if VERSION.match(content):
            if depth in self.groups and (self.groups[depth].results or
                                         self.groups[depth].plan is not None):
                if depth == 0:
                    self.problem(lineno, 'a second TAP stream at the top')
                    return
                # a new nested stream: the previous one lost its parent
                self.take_children(depth - 1, Result(lineno, False, '', None, ''))
                self.problem(lineno, 'nested results with no parent result')
            self.groups[depth] = Group(lineno)
            return
        m = PLAN.match(content)
        if m:
            g = self.group(depth, lineno)
            if g.plan is not None:
                self.problem(lineno, 'second plan in one group')
            g.plan = int(m.group(1))
            return
        m = RESULT.match(content)
        g = self.group(depth, lineno)
        desc, directive, reason = split_directive(m.group(3))
        r = Result(lineno, m.group(1) == 'ok', normalize(desc), directive, reason)
        if m.group(2) is not None:
            num = int(m.group(2))
            due = len(g.results) + 1
            if num != due:
                self.problem(lineno, f'result number {num} where '
                             f'{due} was due (repeated or out of sequence)')
        g.results.append(r)
        self.take_children(depth, r)

    def finish(self, lineno):
        for d in sorted((k for k in self.groups if k > 0), reverse=True):
            g = self.groups.pop(d)
            self.problem(g.line, f'results at depth {d} never got their parent '
                         '(the stream stops inside a subtest)')
            self.groups.setdefault(d - 1, Group(g.line)).results += g.results
        top = self.groups.get(0)
        if top is None or not top.results:
            self.problem(lineno, 'no results')
            return []
        self.close(top, 'top level')
        return top.results


def leaves(results, prefix=''):
    """Yield (result, path, counted-as) for what counts, depth first."""
    for r in results:
        path = prefix + r.desc
        if not r.has_subtest or not r.children:
            yield r, path
            continue
        yield from leaves(r.children, path + ' / ')
        child_failed = any(not c.ok for c, _ in leaves(r.children))
        if (not r.ok and not child_failed) or r.directive == 'skip':
            yield r, path


def read_manifest(path, variant):
    """Map test path -> skip reason ('' when it must pass) for VARIANT."""
    want = {}
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            fields = [x.strip() for x in line.split('|')]
            if len(fields) not in (2, 3) or not fields[1]:
                sys.exit(f'{path}:{n}: want "VARIANTS | TEST [| skip: REASON]"')
            reason = ''
            if len(fields) == 3:
                if not fields[2].startswith('skip: ') or len(fields[2]) < 7:
                    sys.exit(f'{path}:{n}: third field must be "skip: REASON"')
                reason = fields[2][6:]
            if variant in fields[0].split():
                if fields[1] in want:
                    sys.exit(f'{path}:{n}: {fields[1]} listed twice')
                want[fields[1]] = reason
    if not want:
        sys.exit(f'{path}: no test listed for variant {variant}')
    return want


def diagnostics(lines, lineno):
    """The diagnostic lines of the result at @lineno (1-based), oldest first.

    They are the lines just before it that are not TAP lines at its own
    depth: its subtest's comments ("# # # ..." under "# # not ok"), up to
    the previous result, plan or version line at that depth.
    """
    depth, _ = split_prefix(lines[lineno - 1])
    out = []
    for text in reversed(lines[max(0, lineno - 1 - 4 * DIAG_LINES):
                               lineno - 1]):
        d, _ = split_prefix(text)
        if d is not None and d <= depth:
            break
        out.append(text.rstrip('\n'))
    return list(reversed(out))[-DIAG_LINES:]


def main(argv):
    args = argv[1:]
    manifest = variant = None
    while len(args) > 1 and args[0].startswith('--'):
        opt = args.pop(0)
        if opt == '--manifest':
            manifest = args.pop(0)
        elif opt == '--variant':
            variant = args.pop(0)
        else:
            sys.exit(f'count-tap.py: unknown option {opt}\n{__doc__}')
    if len(args) != 1 or args[0] in ('-h', '--help') or \
            (manifest is None) != (variant is None):
        print(__doc__.strip())
        return 0 if args[:1] in (['-h'], ['--help']) else 2
    path = args[0]
    judge = Judge(path)
    lineno = 0
    lines = []
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            for lineno, line in enumerate(f, 1):
                lines.append(line)
                judge.feed(lineno, line)
    except OSError as e:
        judge.problem(0, f'cannot read: {e.strerror}')
    top = judge.finish(lineno)
    want = read_manifest(manifest, variant) if manifest else None

    passed = failed = skipped = 0
    failures = []
    seen = {}
    for r, p in leaves(top):
        seen[p] = seen.get(p, 0) + 1
        if seen[p] > 1:
            continue
        if want is not None and p not in want and not r.has_subtest:
            judge.problem(r.line, f'"{p}" is not in the manifest for {variant}')
        excuse = want.get(p, '') if want is not None else ''
        if r.has_subtest and not r.children:
            failures.append(f'{path}:{r.line}: "{p}": its subtest has no result')
        elif r.ok and r.directive in ('skip', 'xfail', 'xpass'):
            # kselftest's XFAIL and XPASS are ok lines that did not pass:
            # like a skip, only what the manifest allows, for its reason.
            if excuse and excuse in r.reason:
                skipped += 1
            else:
                failures.append(f'{path}:{r.line}: "{p}": {r.directive} '
                                f'({r.reason}) not allowed by the manifest')
        elif r.ok:
            passed += 1
        else:
            # not ok, whatever its directive (# SKIP, # TODO) says
            failures.append(f'{path}:{r.line}: "{p}" failed' +
                            ''.join(f'\n  | {d}'
                                    for d in diagnostics(lines, r.line)))
    for p, n in seen.items():
        if n > 1:
            judge.problem(0, f'"{p}" reported {n} times')
    if want is not None:
        for p in want:
            if p not in seen:
                judge.problem(0, f'"{p}" did not report')
    # Each failing result once, and each broken promise of the stream once.
    failed = len(failures) + len(judge.problems)
    for p in failures + judge.problems:
        print(p, file=sys.stderr)
    print(passed, failed, skipped)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
