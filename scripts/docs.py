#!/usr/bin/python3
"""Check (or regenerate) every block of shown output in the user docs.

usage: docs.py --check | --update   (from scripts/docs-check.sh, make docs)
       docs.py --quotes FILE...     (the quoted-from markers of FILEs only)
       docs.py --pictures FILE...   (the picture markers of FILEs only)
       docs.py --line-counts FILE   (the line counts of a cover letter)

Every fenced block (a line starting with three backquotes) of README.md,
Documentation/user-guide.md and tools/schedpoints/README.md must follow,
on the line before it, one of these markers:

  <!-- output of: ARGS | on: CAPTURE | source: NAME [| title: QUESTION] -->
      The block is the output of "schedpoints -f CAPTURE ARGS" (the tool
      built from this checkout), headed by the command line
      "# schedpoints ARGS", or, with a title, by the heading that the
      demo (scripts/guest/guest-demo) prints: "=== QUESTION (schedpoints
      ARGS)" and an empty line. The only text not compared as it is: the
      file name on the tool's "source" line, CAPTURE there, NAME as shown
      (/proc/sched_points, or the file the demo read in the guest).
      --check compares; --update rewrites the block. Optional fields
      "wakers-on: CAPTURE2 | wakers-source: NAME2": where ARGS name
      NAME2 (-W NAME2), CAPTURE2 is read, and the tool's "wakers" line
      shows NAME2.
  <!-- commands -->
      Commands only, no output. Each "schedpoints ..." line is run on a
      capture (files it names replaced by captures, -o into a scratch
      directory, a pipe cut off, top on a two-snapshot stream) and must
      exit 0, or 1 saying that nothing matches (a pid, a module of
      another machine); each "make TARGET" must be a target of its Makefile.
  <!-- quoted from: FILE [| section: HEADING [| up to: HEADING2]] -->
      Not before a block: the text after it, up to the next heading,
      quotes FILE's figures; each decimal number with a point, and each
      whole number of three digits or more (not in a date, a word or a
      version), must be in FILE as written: with a section, in FILE's
      section of that heading (up to the next heading of its level or
      above), and with "up to", only in its part before the heading
      HEADING2 (which must be in it). Besides README.md, the user guide and the tool's
      README, Documentation/performance.md is read for these markers,
      and its "What the figures say" must open with one that quotes its
      "Latest results" (the figures of one run).
  <!-- derived: N = EXPR[; N2 = EXPR2 ...] -->
      Inside a quote: whole numbers the text works out from FILE's
      (EXPR: FILE's numbers, + - * / and parentheses), each checked to
      be EXPR rounded up or down, and then allowed in the text.
  <!-- older run: YYYY-MM-DD -->
      Inside a quote: the paragraph after it (up to a blank line) states
      figures of an older run, which it must date (the marker's date in
      its text); its figures are not checked.
  <!-- recorded: WHY -->
      A dated measurement (times, fuzzing), not reproducible output: not
      compared, but it must say why.

Not before a block:

  <!-- picture of: ARGS | on: CAPTURE | source: NAME | file: PATH -->
      The next line is a Markdown image of PATH (relative to the doc), an
      SVG committed in the repository: the output of "schedpoints -f
      CAPTURE ARGS" (a heatmap), byte for byte, with CAPTURE on its source
      line shown as NAME (the file the demo read in the guest, so that the
      picture is the one make demo writes). --check regenerates it, fails
      if the committed file differs, and runs the tool twice (the picture
      must not change from one run to the next); --update rewrites PATH.
      "docs.py --pictures DOC..." checks the pictures of DOCs only.

Besides, it checks facts stated in several places: the textfile
collector path (one path), README's list of make help targets, the
cover letter's count of harness tests, the manifest's counts of the tests
each kernel reports (as README.md, developing.md and the selftests' README
quote make check's line), the man page's date, what the series (patches/)
defines as README.md, the user guide, the man page and the selftests'
README state it: CONFIG_SCHED_POINTS's `depends on` line, the list of
debugfs controls ("debugfs controls of sched_points/: ...") and of boot
parameters ("Boot parameters: ..."), the memory
per CPU in the guide against the spec, and that each example of the format
in the spec (Documentation/scheduler/sched-points.rst in the kernel tree)
parses as the tool reads it. Prints TAP (a plan last) and exits 1
on any failure.
"""
import difflib
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(REPO, 'tools/schedpoints/schedpoints')
DOCS = ['README.md', 'Documentation/user-guide.md',
        'tools/schedpoints/README.md']
CAPTURE = 'tools/schedpoints/tests/fixtures/guest-demo-caller.txt'
MARK = re.compile(r'^<!-- (output of|commands|recorded)(?::\s*(.*?))?\s*-->$')
PICTURE = re.compile(r'^<!-- picture of: (.*?)\s*-->$')
IMAGE = re.compile(r'^!\[[^\]]+\]\(([^)\s]+)\)$')

results = []


def result(ok, name, why=()):
    results.append((ok, name, list(why)))


def run_tool(args, capture, source, wakers=None):
    """Output of the tool on capture, its source line naming source (and
    with wakers, a (CAPTURE, NAME) pair, its wakers line naming NAME)."""
    p = subprocess.run([TOOL, '-f', os.path.join(REPO, capture)] + args,
                       capture_output=True, text=True, cwd=REPO)
    out = p.stdout
    if p.returncode != 0:
        out += 'exit %d: %s' % (p.returncode, p.stderr)
    names = [('source ', os.path.join(REPO, capture), source)]
    if wakers:
        names.append(('wakers ', os.path.join(REPO, wakers[0]), wakers[1]))
    lines = out.split('\n')[:-1]
    for word, path, name in names:
        pre = word + path + '  '
        lines = [(word + name + '  ' + ln[len(pre):])
                 if ln.startswith(pre) else ln for ln in lines]
    return lines


def parse_fields(text):
    fields = {}
    for part in text.split(' | '):
        key, _, val = part.partition(': ')
        fields[key.strip()] = val.strip()
    return fields


def output_block(fields):
    args = shlex.split(fields['args'])
    shown = 'schedpoints ' + fields['args']
    if 'title' in fields:
        head = ['=== %s (%s)' % (fields['title'], shown), '']
    else:
        head = ['# ' + shown]
    wakers = None
    # -W NAME in the args shown is the capture wakers-on when run.
    if 'wakers-on' in fields:
        wakers = (fields['wakers-on'], fields['wakers-source'])
        args = [os.path.join(REPO, wakers[0]) if a == wakers[1] else a
                for a in args]
    return head + run_tool(args, fields['on'], fields['source'], wakers)


def xml_escaped(s):
    return (s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')
            .replace('"', '&quot;').replace("'", '&apos;'))


def render_picture(fields):
    """The SVG of "schedpoints -f CAPTURE ARGS", CAPTURE shown as NAME on
    its source line, as bytes; and what went wrong (None if nothing)."""
    args = shlex.split(fields['args'])
    if any(a in ('-o', '--output') or a.startswith('--output=') for a in args):
        return b'', 'ARGS write to stdout: no -o'
    capture = os.path.join(REPO, fields['on'])
    p = subprocess.run([TOOL, '-f', capture] + args, capture_output=True,
                       cwd=REPO)
    if p.returncode != 0:
        return b'', 'exit %d: %s' % (p.returncode,
                                     p.stderr.decode(errors='replace').strip())
    shown = ('>%s</text>' % xml_escaped(capture)).encode()
    if shown not in p.stdout:
        return p.stdout, 'no source line naming %s' % capture
    return p.stdout.replace(shown, ('>%s</text>' % xml_escaped(
        fields['source'])).encode(), 1), None


def check_picture(doc, lnum, text, image, update):
    """A '<!-- picture of: ... -->' marker at doc:lnum, image the line after
    it: the committed SVG is the tool's picture of the capture."""
    fields = parse_fields('args: ' + text)
    where = '%s:%d' % (doc, lnum)
    missing = [k for k in ('args', 'on', 'source', 'file') if not fields.get(k)]
    if missing:
        result(False, '%s: a picture marker with its fields' % where,
               ['missing: %s' % ', '.join(missing)])
        return
    path = os.path.join(REPO, fields['file'])
    name = '%s: picture %s is schedpoints %s on %s' % (
        where, fields['file'], fields['args'], fields['on'])
    m = IMAGE.match(image or '')
    target = os.path.normpath(os.path.join(
        os.path.dirname(os.path.join(REPO, doc)), m.group(1))) if m else None
    result(target == os.path.normpath(path),
           '%s: the line after the picture marker shows %s' % (where, fields['file']),
           ['the line: %s' % (image or '(none)'),
            'want: ![WHAT](%s)' % os.path.relpath(
                path, os.path.dirname(os.path.join(REPO, doc)))])
    want, wrong = render_picture(fields)
    if wrong:
        result(False, name, [wrong])
        return
    again, _ = render_picture(fields)
    result(again == want, '%s: the same picture on two runs' % where,
           list(difflib.unified_diff(want.decode().split('\n'),
                                     again.decode().split('\n'), 'first',
                                     'second', lineterm='', n=0))[:12])
    try:
        with open(path, 'rb') as f:
            have = f.read()
    except OSError as e:
        have, why = None, [str(e)]
    if have == want:
        result(True, name)
        return
    if have is not None:
        why = list(difflib.unified_diff(
            have.decode(errors='replace').split('\n'),
            want.decode().split('\n'), 'committed', 'now', lineterm='',
            n=0))[:12]
    if update:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(want)
        name += ' (rewritten)'
    result(update, name, why)


def check_pictures(doc, update):
    lines = read(doc).split('\n')
    for i, ln in enumerate(lines):
        m = PICTURE.match(ln)
        if m:
            check_picture(doc, i + 1, m.group(1),
                          lines[i + 1] if i + 1 < len(lines) else None, update)


def run_example(line, doc, lnum, tmp):
    """Run one shown schedpoints command on a capture."""
    cmd = line.split(' | ')[0]
    cmd = re.sub(r'\s+#.*$', '', cmd)
    words = shlex.split(cmd)[1:]
    cap = os.path.join(REPO, CAPTURE)
    args, stdin, i = [], None, 0
    while i < len(words):
        w = words[i]
        if w in ('-f', '--file'):
            i += 2
            continue
        if w in ('-o', '--output'):
            args += [w, os.path.join(tmp, os.path.basename(words[i + 1]))]
            i += 2
            continue
        if w.endswith('.txt'):
            w = cap
        args.append(w)
        i += 1
    if 'diff' in args:
        pass
    elif 'top' in args:
        args = ['-f', '-'] + [a for a in args if a not in ('top',)]
        args.insert(args.index('-f') + 2, 'top')
        with open(cap) as f:
            text = f.read()
        stdin = text + text
    else:
        args = ['-f', cap] + args
    p = subprocess.run([TOOL] + args, input=stdin, capture_output=True,
                       text=True)
    # An example about another machine (a pid, a module) may match nothing
    # in the capture: that is status 1 with "no ...", not a usage error.
    none = p.returncode == 1 and p.stderr.startswith('schedpoints: no ')
    result(p.returncode == 0 or none, '%s:%d: runs: %s%s'
           % (doc, lnum, cmd, ' (matches nothing in the capture)' if none else ''),
           p.stderr.splitlines()[:3])


def make_target(line, doc, lnum):
    words = shlex.split(re.sub(r'\s+#.*$', '', line))
    d = os.path.join(REPO, os.path.dirname(doc))
    targets = [w for w in words[1:] if '=' not in w]
    for t in targets:
        p = subprocess.run(['make', '-n', '-C', d, t], capture_output=True,
                           text=True)
        result(p.returncode == 0, '%s:%d: make %s is a target of %s'
               % (doc, lnum, t, os.path.join(os.path.dirname(doc), 'Makefile')),
               p.stderr.splitlines()[:2])


def check_doc(doc, update, tmp):
    path = os.path.join(REPO, doc)
    with open(path) as f:
        lines = f.read().split('\n')
    out, i, changed = [], 0, False
    while i < len(lines):
        ln = lines[i]
        if not ln.startswith('```'):
            out.append(ln)
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith('```'):
            end += 1
        block = lines[i + 1:end]
        m = MARK.match(lines[i - 1]) if i else None
        where = '%s:%d' % (doc, i + 1)
        if not m:
            result(False, '%s: a block with a marker (output of, commands, '
                   'recorded) on the line before' % where)
        elif m.group(1) == 'output of':
            fields = parse_fields('args: ' + (m.group(2) or ''))
            want = output_block(fields)
            if block != want:
                if update:
                    block, changed = want, True
                diff = difflib.unified_diff(block, want, 'shown', 'now',
                                            lineterm='', n=0)
                result(update, '%s: output of schedpoints %s on %s'
                       % (where, fields['args'], fields['on']), list(diff)[:12])
            else:
                result(True, '%s: output of schedpoints %s on %s'
                       % (where, fields['args'], fields['on']))
        elif m.group(1) == 'recorded':
            result(bool(m.group(2)), '%s: recorded: %s'
                   % (where, m.group(2) or '(no reason given)'))
        else:
            for k, b in enumerate(block):
                if b.startswith('schedpoints '):
                    run_example(b, doc, i + 2 + k, tmp)
                elif b.startswith('make '):
                    make_target(b, doc, i + 2 + k)
        out += [ln] + block + [lines[end] if end < len(lines) else '```']
        i = end + 1
    if changed:
        with open(path, 'w') as f:
            f.write('\n'.join(out))


def read(rel):
    with open(os.path.join(REPO, rel)) as f:
        return f.read()


def check_facts():
    # One textfile collector path wherever one is shown.
    paths = {}
    for doc in DOCS + ['tools/schedpoints/schedpoints.8']:
        for p in re.findall(r'(/var/lib/\S+?)/sched_points\.prom', read(doc)):
            paths.setdefault(p.replace('\\-', '-'), []).append(doc)
    result(len(paths) == 1, 'one textfile collector directory: %s'
           % ', '.join(sorted(paths)),
           ['%s in %s' % (p, ', '.join(d)) for p, d in paths.items()])
    # README's list of make help targets is the Makefile's.
    helptext = subprocess.run(['make', '-s', '-C', REPO, 'help'],
                              capture_output=True, text=True).stdout
    have = set(re.findall(r'^make ([\w-]+)', helptext, re.M))
    m = re.search(r'`make help`: the other targets \((.*?)\)\.', read('README.md'),
                  re.S)
    listed = set(re.findall(r'`([\w-]+)`', m.group(1))) if m else set()
    want = have - {'demo', 'check'}
    result(listed == want, "README.md: make help's targets are listed",
           ['missing: %s' % ' '.join(sorted(want - listed)),
            'not in make help: %s' % ' '.join(sorted(listed - want))])
    # The cover letter counts the harness tests.
    tests = len(re.findall(r'^TEST(?:_F)?(?:_TIMEOUT)?\(',
                           read('selftests/sched_points/sched_points_test.c'),
                           re.M))
    m = re.search(r'\((\d+) harness tests', read('Documentation/cover-letter.txt'))
    said = int(m.group(1)) if m else None
    result(said == tests, 'cover letter: %s harness tests, sched_points_test.c '
           'has %d' % (said, tests))
    check_line_counts(os.path.join(REPO, 'Documentation/cover-letter.txt'))
    # The manifest's counts, as make check's closing lines say them.
    expected = {}
    for line in read('selftests/manifest').splitlines():
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        for v in line.split('|')[0].split():
            expected[v] = expected.get(v, 0) + 1
    for doc in ('README.md', 'Documentation/developing.md',
                'selftests/sched_points/README'):
        said = re.findall(r'`(main|debug): (\d+) of (\d+) expected', read(doc))
        result(bool(said) and all(int(a) == int(b) == expected.get(v)
                                  for v, a, b in said),
               '%s: the manifest expects %s' % (
                   doc, ', '.join('%s %d' % kv for kv in sorted(expected.items()))),
               ['says: %s' % ', '.join('%s %s of %s' % t for t in said)])
    # The man page is dated in the month of its last change.
    man = 'tools/schedpoints/schedpoints.8'
    m = re.search(r'^\.TH SCHEDPOINTS 8 "([^"]*)"', read(man), re.M)
    dirty = subprocess.run(['git', '-C', REPO, 'diff', '--quiet', 'HEAD', '--',
                            man]).returncode != 0
    log = subprocess.run(['git', '-C', REPO, 'log', '-1', '--format=%cs', '--',
                          man], capture_output=True, text=True).stdout.strip()
    if dirty or not log:
        log = subprocess.run(['date', '+%F'], capture_output=True,
                             text=True).stdout.strip()
    got = m.group(1) if m else None
    result(got == log[:7], '%s: dated %s, last changed %s' % (man, got, log[:7]))
    # Memory per CPU: the guide says what the spec says.
    # (the last patch that changes the spec's figure has the current one).
    pdir = os.path.join(REPO, 'patches')
    s = []
    for name in sorted(os.listdir(pdir)):
        s += re.findall(r'^\+.*?(\d+) KiB per', read('patches/' + name), re.M)
    g = re.findall(r'(\d+) KiB per (?:online )?CPU', read('Documentation/user-guide.md'))
    result(bool(g and s) and set(g) == {s[-1]},
           'user-guide.md: memory per CPU %s KiB, the spec says %s KiB'
           % ('/'.join(g), s[-1] if s else None))


KERNEL_DOCS = ['README.md', 'Documentation/user-guide.md',
               'tools/schedpoints/schedpoints.8',
               'selftests/sched_points/README']


def check_line_counts(letter):
    """The cover letter's line counts of the series' own non-test kernel
    C ("patches 1-10 add N lines", first, then any other range) are what
    the patches add (own_lines())."""
    with open(letter) as f:
        said = re.findall(r'[Pp]atches (\d+)-(\d+) add (\d+) lines',
                          re.sub(r'\s+', ' ', f.read()))
    got = [(int(a), int(b), int(n), own_lines(int(a), int(b)))
           for a, b, n in said]
    result(bool(got) and got[0][:2] == (1, 10) and
           all(n == have for _, _, n, have in got),
           '%s: the line counts of the series\' own kernel C'
           % os.path.relpath(letter, REPO),
           ['patches %d-%d: says %d, the patches add %d' % g for g in got] or
           ['no "patches 1-10 add N lines"'])


def own_lines(first, last):
    """Lines that patches first..last add to the series' own non-test
    kernel C (include/linux/sched_points.h, kernel/sched/points*.[ch]
    but the KUnit tests), less the lines they remove: `wc -l` of those
    files after patch last, less after patch first - 1."""
    own = re.compile(r'^diff --git a/(include/linux/sched_points\.h|'
                     r'kernel/sched/points(?!_kunit)\w*\.[ch]) ')
    pdir = os.path.join(REPO, 'patches')
    n = 0
    for name in sorted(os.listdir(pdir)):
        m = re.match(r'(\d{4})-', name)
        if not m or not first <= int(m.group(1)) <= last:
            continue
        counted = False
        for ln in read('patches/' + name).split('\n'):
            if ln.startswith('diff --git') or ln == '-- ':
                counted = bool(own.match(ln))
            elif counted and ln.startswith('+') and not ln.startswith('+++ '):
                n += 1
            elif counted and ln.startswith('-') and not ln.startswith('--- '):
                n -= 1
    return n


def series_facts():
    """What the series (patches/, applied in order) defines: the `depends
    on` line of config SCHED_POINTS, its boot parameters (__setup,
    core_param), its debugfs files (debugfs_create_*) and its sysctls (the
    procnames of its ctl_tables), lines added less lines removed; in the
    kernel, not
    in its selftests (their test module has debugfs files of its own)."""
    pdir = os.path.join(REPO, 'patches')
    deps, boot, files, sysctls = None, {}, {}, {}
    for name in sorted(os.listdir(pdir)):
        if not name.endswith('.patch'):
            continue
        config, selftest = None, False
        for ln in read('patches/' + name).split('\n'):
            if ln.startswith(('diff --git', '@@')):
                config = None
            if ln.startswith('diff --git'):
                selftest = ' a/tools/testing/' in ln
            if selftest:
                continue
            m = re.match(r'^[ +]config (\w+)', ln)
            if m:
                config = m.group(1)
            m = re.match(r'^\+\s+depends on (.*?)\s*$', ln)
            if m and config == 'SCHED_POINTS':
                deps = m.group(1)
            for pat, got in ((r'(?:__setup\("|core_param\()(\w+)[=,]', boot),
                             (r'debugfs_create_(?!dir)\w+\("(\w+)"', files),
                             (r'(?:SCHED_POINTS_(?:SYSCTL|SWITCH)\(|\.procname\s*=\s*)'
                              r'"(sched_points\w*)"', sysctls)):
                m = re.match(r'^([+-]).*' + pat, ln)
                if m:
                    got[m.group(2)] = got.get(m.group(2), 0) + \
                        (1 if m.group(1) == '+' else -1)
    return (deps, {k for k, n in boot.items() if n > 0},
            {k for k, n in files.items() if n > 0},
            {k for k, n in sysctls.items() if n > 0})


def list_names(text):
    """The names of a list: 'a, b and c' or '`a`, `b`, `c`'."""
    names = []
    for item in re.split(r',\s*|\s+and\s+', text):
        m = re.match(r'`?([a-z_]+)', item.strip())
        if m:
            names.append(m.group(1))
    return names


FIGURE = re.compile(r'(?<![\d.])\d+\.\d+(?!\.?\d)')
# A whole number of three digits or more, as prose states a count, a size
# or a time: not part of a decimal, a date, a word (x86_64, 100k, 0x40),
# a version (6.12.118) or an expression (2^20).
WHOLE = re.compile(r'(?<![\w.,^/:-])\d{3,}(?![\w.,^-]?\d)(?![\w^])')
DERIVED = re.compile(r'^\s*<!-- derived: (.*?)\s*-->$')
QUOTING = DOCS + ['Documentation/performance.md']
# (doc, its section, the section of the same doc it must quote)
QUOTES_REQUIRED = [('Documentation/performance.md', 'What the figures say',
                    'Latest results')]
OLDER = re.compile(r'^\s*<!-- older run: (.*?)\s*-->$')


def heading(ln):
    """(level, text) of a Markdown heading line, or None."""
    m = re.match(r'^(#+)\s+(.*?)\s*$', ln)
    return (len(m.group(1)), m.group(2)) if m else None


def quoted_text(fields):
    """The text a quote's figures must be in, and what is wrong with the
    marker (None if nothing)."""
    try:
        src = read(fields['file'])
    except OSError as e:
        return '', str(e)
    if 'section' not in fields:
        return src, None
    lines = src.split('\n')
    start = next((i for i, ln in enumerate(lines)
                  if heading(ln) and heading(ln)[1] == fields['section']), None)
    if start is None:
        return '', 'no section "%s" in %s' % (fields['section'], fields['file'])
    level = heading(lines[start])[0]
    body = []
    for ln in lines[start + 1:]:
        h = heading(ln)
        if h and h[0] <= level:
            break
        if h and h[1] == fields.get('up to'):
            return '\n'.join(body), None
        body.append(ln)
    if 'up to' in fields:
        return '', 'no heading "%s" in its section "%s"' % (
            fields['up to'], fields['section'])
    return '\n'.join(body), None


def derived(expr, have):
    """The numbers that '<!-- derived: N = EXPR; ... -->' lets a quote
    state, and what is wrong with it: each N must be what EXPR (numbers
    of the quoted text, + - * / and parentheses) comes to, rounded up or
    down."""
    ok, why = set(), []
    for part in filter(None, (x.strip() for x in expr.split(';'))):
        m = re.fullmatch(r'(\d+) = ([\d.+\-*/() ]+)', part)
        if not m:
            why.append('derived "%s": not "N = EXPR"' % part)
            continue
        n, e = m.group(1), m.group(2)
        alien = [x for x in re.findall(r'\d+(?:\.\d+)?', e) if x not in have]
        if alien:
            why.append('derived "%s": %s not in the quoted text'
                       % (part, ' '.join(alien)))
            continue
        value = eval(e, {'__builtins__': {}})  # digits and operators only
        if int(n) not in (math.floor(value), math.ceil(value)):
            why.append('derived "%s": EXPR comes to %s' % (part, value))
            continue
        ok.add(n)
    return ok, why


def check_quotes(docs=QUOTING):
    """A section marked '<!-- quoted from: FILE -->' quotes FILE's
    figures: every decimal number with a point in it, and every whole
    number of three digits or more, up to the next heading, is in FILE
    (or the section of FILE the marker names) as it is, so that a
    regenerated FILE fails the quote until it is quoted again. A whole
    number computed from FILE's is stated with its computation in a
    '<!-- derived: N = EXPR; ... -->' line, which is checked. A
    paragraph marked '<!-- older run: DATE -->' is exempt, and must say
    DATE."""
    for doc in docs:
        lines = read(doc).split('\n')
        for i, ln in enumerate(lines):
            m = re.match(r'^<!-- quoted from: (.*?) -->$', ln)
            if not m:
                continue
            fields = parse_fields('file: ' + m.group(1))
            src, wrong = quoted_text(fields)
            have = set(FIGURE.findall(src))
            whole = set(re.findall(r'\d+', src))
            body, older, why = [], None, []
            for k, b in enumerate(lines[i + 1:], i + 2):
                if b.startswith('#'):
                    break
                d = DERIVED.match(b)
                if d:
                    ok, bad = derived(d.group(1), have | whole)
                    whole |= ok
                    why += ['%s:%d: %s' % (doc, k, x) for x in bad]
                    continue
                o = OLDER.match(b)
                if o:
                    older = (o.group(1), k, [])
                    continue
                if older and not b.strip():
                    dated = re.fullmatch(r'\d{4}-\d\d-\d\d', older[0]) and \
                        older[0] in ' '.join(older[2])
                    if not dated:
                        why.append('%s:%d: an older run\'s paragraph that does '
                                   'not state its date (YYYY-MM-DD): "%s"'
                                   % (doc, older[1], older[0]))
                    older = None
                if older:
                    older[2].append(b)
                else:
                    body.append(b)
            if older:
                why.append('%s:%d: an older run\'s marker with no paragraph '
                           'ended by a blank line' % (doc, older[1]))
            text = '\n'.join(body)
            figs = FIGURE.findall(text)
            missing = [f for f in figs if f not in have]
            # Dates are not figures.
            text = re.sub(r'\d{4}-\d\d-\d\d', '', text)
            counts = WHOLE.findall(text)
            missing += [f for f in counts if f not in whole]
            figs += counts
            what = fields['file']
            if 'section' in fields:
                what += ', section "%s"' % fields['section']
            if 'up to' in fields:
                what += ' up to "%s"' % fields['up to']
            if wrong:
                why.append(wrong)
            if missing and not wrong:
                why.append('not in %s: %s' % (what, ' '.join(missing)))
            name = os.path.relpath(os.path.join(REPO, doc), REPO)
            result(bool(figs) and not why,
                   '%s:%d: its %d figures are in %s' % (
                       doc if name.startswith('..') else name, i + 1,
                       len(figs), what), why)


def check_quotes_required():
    """The sections that must quote another's figures open with the
    marker that says so."""
    for doc, section, quoted in QUOTES_REQUIRED:
        lines = read(doc).split('\n')
        at = next((i for i, ln in enumerate(lines)
                   if heading(ln) and heading(ln)[1] == section), None)
        first = next((ln for ln in lines[at + 1:] if ln.strip()), '') \
            if at is not None else ''
        m = re.match(r'^<!-- quoted from: (.*?) -->$', first)
        fields = parse_fields('file: ' + m.group(1)) if m else {}
        result(fields.get('file') == doc and fields.get('section') == quoted,
               '%s: "%s" opens with a quote of its "%s"'
               % (doc, section, quoted),
               ['its first line: %s' % first if at is not None
                else 'no section "%s"' % section])


def check_series_facts():
    """Facts with one source, the series: each doc that states them says
    what the patches say (the Kconfig dependencies, the debugfs controls,
    the sysctls, the boot parameters)."""
    deps, boot, files, sysctls = series_facts()
    for doc in KERNEL_DOCS:
        text = read(doc)
        said = [a or b for a, b in re.findall(
            r'depends on\s*(?:`([^`]*)`|\.BR "([^"]*)")', text)]
        said = [' '.join(x.split()) for x in said]
        if doc != 'selftests/sched_points/README':
            result(bool(said) and all(x == deps for x in said),
                   '%s: CONFIG_SCHED_POINTS depends on %s (the series\' '
                   'Kconfig)' % (doc, deps),
                   ['says: %s' % ' | '.join(said or ['nothing'])])
        lists = re.findall(r'debugfs (?:controls|files) of `?(?:/sys/kernel/'
                           r'debug/)?sched_points/`?:\s*(.*?)[.;)]', text, re.S)
        if doc != 'README.md':
            got = [list_names(x) for x in lists]
            result(bool(got) and all(sorted(g) == sorted(files) for g in got),
                   '%s: the debugfs controls are the series\' (%s)'
                   % (doc, ' '.join(sorted(files))),
                   ['says: %s' % ' | '.join(' '.join(g) for g in got)
                    or 'no list'])
        lists = re.findall(r'[Ss]ysctls of `?kernel\.`?:\s*(.*?)[.;)]\s',
                           text, re.S)
        if doc in ('Documentation/user-guide.md',
                   'tools/schedpoints/schedpoints.8'):
            got = [list_names(x) for x in lists]
            result(bool(got) and all(sorted(g) == sorted(sysctls)
                                     for g in got),
                   '%s: the sysctls are the series\' (%s)'
                   % (doc, ' '.join(sorted(sysctls))),
                   ['says: %s' % ' | '.join(' '.join(g) for g in got)
                    or 'no list'])
        para = re.findall(r'Boot parameters: (.*?)(?:\n\n|\n\.|$)', text, re.S)
        if doc in ('Documentation/user-guide.md',
                   'tools/schedpoints/schedpoints.8'):
            got = [set(re.findall(r'(sched_points\w*)=', x)) for x in para]
            result(bool(got) and all(g == boot for g in got),
                   '%s: the boot parameters are the series\' (%s)'
                   % (doc, ' '.join(sorted(boot))),
                   ['says: %s' % ' | '.join(' '.join(sorted(g)) for g in got)
                    or 'no list'])


def check_spec_examples(tmp):
    """Each example of the format in the spec parses, as the tool reads it.

    The examples show the head of a file: their entries line is set to
    the data lines shown, everything else is as the spec prints it.
    """
    tree = os.environ.get('TREE', os.path.join(REPO, 'build/linux'))
    spec = os.path.join(tree, 'Documentation/scheduler/sched-points.rst')
    if not os.path.exists(spec):
        result(False, 'spec examples: no %s (make tree)' % spec)
        return
    lines = read(spec).split('\n')
    for start, line in enumerate(lines, 1):
        if not line.startswith('\tsched_points version '):
            continue
        block = []
        for ln in lines[start - 1:]:
            if not ln.startswith('\t') or ln.startswith('\t# '):
                break
            block.append(ln[1:])
        hdr = next((i for i, ln in enumerate(block)
                    if ln.startswith('pid\t')), len(block))
        block = [re.sub(r'^entries \d+$', 'entries %d' % (len(block) - hdr - 1),
                        ln) for ln in block]
        path = os.path.join(tmp, 'spec-example.txt')
        with open(path, 'w') as f:
            f.write('\n'.join(block) + '\n')
        p = subprocess.run([TOOL, '-f', path, 'sites'], capture_output=True,
                           text=True)
        result(p.returncode == 0 and len(block) > hdr + 1,
               'the spec\'s format example at line %d parses (%d lines)'
               % (start, len(block)), p.stderr.strip().split('\n'))


def main():
    if sys.argv[1:2] == ['--quotes'] and sys.argv[2:]:
        # The quotes of the files named only (scripts/test-check-scripts.sh
        # plants faults in copies).
        check_quotes([os.path.abspath(a) for a in sys.argv[2:]])
        return report()
    if sys.argv[1:2] == ['--line-counts'] and sys.argv[2:3]:
        # The line counts of a copy of the cover letter
        # (scripts/test-check-scripts.sh plants a wrong one).
        check_line_counts(os.path.abspath(sys.argv[2]))
        return report()
    if sys.argv[1:2] == ['--pictures'] and sys.argv[2:]:
        # The pictures of the docs named only (test-check-scripts.sh plants
        # a stale picture in a copy).
        for doc in sys.argv[2:]:
            check_pictures(os.path.abspath(doc), False)
        return report()
    update = sys.argv[1:] == ['--update']
    if not update and sys.argv[1:] != ['--check']:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        for doc in DOCS:
            check_doc(doc, update, tmp)
            check_pictures(doc, update)
        check_spec_examples(tmp)
    check_facts()
    check_series_facts()
    check_quotes()
    check_quotes_required()
    report()


def report():
    failed = 0
    for n, (ok, name, why) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, name))
        if not ok:
            failed += 1
            for w in why:
                print('#   ' + w)
    print('# %d passed, %d failed' % (len(results) - failed, failed))
    print('1..%d' % len(results))
    sys.exit(1 if failed else 0)


main()
