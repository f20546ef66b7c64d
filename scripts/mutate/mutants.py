# SPDX-License-Identifier: GPL-2.0
"""Single-point mutants of a C source file.

Each mutant is one small textual change at one place in the code (never in
comments, string or character literals, preprocessor lines, or the
compile-time assertions _Static_assert, static_assert and BUILD_BUG_ON*),
made by one of the usual mutation operators:

  ror       relational operator:  <  <=  >  >=  ==  !=  (one step each)
  aor       binary + and - swapped (also += and -=)
  bit       binary & and | swapped (also &= and |=), ~x -> x
  shift     << and >> swapped (also <<= and >>=)
  lcr       && and || swapped
  const     an integer literal +1 and -1
  cond      one operand of && or || deleted; an if's condition -> 0
  args      the first two arguments of a call swapped

A compile-time assertion generates no code: a mutant of one either fails
to build or builds the same program, so it can only be "uncompilable" or
equivalent, never a question for the tests.

The list is sorted, so a seed picks the same sample on every run.  A
mutant's stable identity is its file, operator and the normalised text of
the lines it changes before and after: line numbers shift, that does not.
"""

import re
from dataclasses import dataclass

KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "case",
            "_Static_assert", "static_assert", "defined", "__attribute__",
            "typeof", "__typeof__", "_Alignof", "alignof", "offsetof",
            "BUILD_BUG_ON", "_Generic"}


@dataclass(frozen=True)
class Mutant:
    path: str        # file, relative to the tree
    op: str          # operator name (see the module comment)
    start: int       # offset of the changed text
    end: int
    repl: str        # text put in its place

    def apply(self, text):
        return text[:self.start] + self.repl + text[self.end:]

    def lines(self, text):
        """The lines the mutant touches, before and after (joined)."""
        ls = text.rfind("\n", 0, self.start) + 1
        le = text.find("\n", self.end)
        le = len(text) if le < 0 else le
        before = text[ls:le]
        after = text[ls:self.start] + self.repl + text[self.end:le]
        return before, after

    def line_no(self, text):
        return text.count("\n", 0, self.start) + 1

    def key(self, text):
        """Stable identity: 'file: before => after', whitespace collapsed
        (C has no '=>')."""
        before, after = self.lines(text)
        return "%s: %s => %s" % (self.path, normalise(before),
                                 normalise(after))


def normalise(s):
    return " ".join(s.split())


def code_mask(text):
    """A list of booleans: True where the character is C code (not a
    comment, literal string or character, or preprocessor line)."""
    n = len(text)
    mask = [True] * n
    i = 0
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            i += 1
            continue
        if at_line_start and c == "#":
            # Preprocessor line, with backslash continuations.
            j = i
            while j < n:
                if text[j] == "\n" and text[j - 1] != "\\":
                    break
                j += 1
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        at_line_start = False
        if c == "\n":
            at_line_start = True
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                mask[k] = False
            at_line_start = text[i:j].endswith("\n")
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i, j):
                mask[k] = False
            i = j
        else:
            i += 1
    return mask


# Compile-time assertions: C11's keyword, its <assert.h> macro and the
# kernel's BUILD_BUG_ON family (BUILD_BUG_ON_MSG, BUILD_BUG_ON_ZERO, ...).
COMPILE_TIME_RE = re.compile(r"\b(_Static_assert|static_assert|BUILD_BUG_ON\w*)\s*\(")


def mask_compile_time(text, mask):
    """Clear the mask over every compile-time assertion, from its name to
    its closing parenthesis (however many lines it takes)."""
    for m in COMPILE_TIME_RE.finditer(text):
        if not mask[m.start(1)]:
            continue
        e = _match_paren(text, mask, m.end() - 1)
        e = len(text) if e < 0 else e + 1
        for k in range(m.start(1), e):
            mask[k] = False
    return mask


def _is_binary(text, mask, i):
    """Whether the operator at i has a left operand (not unary, as in
    'return -EINVAL' or 'case -1:')."""
    j = i - 1
    while j >= 0 and (not mask[j] or text[j].isspace()):
        j -= 1
    if j < 0:
        return False
    p = text[j]
    if p in ")]":
        return True
    if not (p.isalnum() or p == "_"):
        return False
    k = j
    while k >= 0 and (text[k].isalnum() or text[k] == "_"):
        k -= 1
    return text[k + 1:j + 1] not in ("return", "case", "sizeof")


def _operand_end(text, mask, i):
    """From offset i, the end of one operand of && / ||: the next && or ||,
    or closing bracket, comma, ;, ? or : at depth 0."""
    depth = 0
    n = len(text)
    while i < n:
        if not mask[i]:
            i += 1
            continue
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (text.startswith("&&", i) or
                             text.startswith("||", i) or c in ",;?:"):
            return i
        i += 1
    return n


def _match_paren(text, mask, i):
    """Offset of the ')' closing the '(' at i, or -1."""
    depth = 0
    for j in range(i, len(text)):
        if not mask[j]:
            continue
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _split_args(text, mask, open_i, close_i):
    """Top-level argument spans (start, end) of a call's parentheses."""
    spans, depth, start = [], 0, open_i + 1
    for j in range(open_i + 1, close_i):
        if not mask[j]:
            continue
        c = text[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((start, j))
            start = j + 1
    spans.append((start, close_i))
    return spans


INT_RE = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])")
IDENT_CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def mutants_of(path, text):
    mask = mask_compile_time(text, code_mask(text))
    out = []

    def add(op, s, e, repl):
        if text[s:e] != repl:
            out.append(Mutant(path, op, s, e, repl))

    n = len(text)
    i = 0
    while i < n:
        if not mask[i]:
            i += 1
            continue
        two = text[i:i + 2]
        three = text[i:i + 3]
        c = text[i]
        if three in ("<<=", ">>="):
            add("shift", i, i + 3, ">>=" if three == "<<=" else "<<=")
            i += 3
            continue
        if two in ("<<", ">>"):
            add("shift", i, i + 2, ">>" if two == "<<" else "<<")
            i += 2
            continue
        if two == "->":
            i += 2
            continue
        if two in ("<=", ">="):
            add("ror", i, i + 2, two[0])
            i += 2
            continue
        if two in ("==", "!="):
            add("ror", i, i + 2, "!=" if two == "==" else "==")
            i += 2
            continue
        if c in "<>":
            add("ror", i, i + 1, c + "=")
            i += 1
            continue
        if two in ("&&", "||"):
            add("lcr", i, i + 2, "||" if two == "&&" else "&&")
            # Delete the right-hand operand (with the connective).
            e = _operand_end(text, mask, i + 2)
            while e > i + 2 and text[e - 1] in " \t\n":
                e -= 1
            if e > i + 2:
                s = i
                while s > 0 and text[s - 1] in " \t\n":
                    s -= 1
                add("cond", s, e, "")
            i += 2
            continue
        if two in ("++", "--"):
            i += 2
            continue
        if two in ("+=", "-="):
            add("aor", i, i + 2, "-=" if two == "+=" else "+=")
            i += 2
            continue
        if two in ("&=", "|="):
            add("bit", i, i + 2, "|=" if two == "&=" else "&=")
            i += 2
            continue
        if c in "+-" and _is_binary(text, mask, i):
            add("aor", i, i + 1, "-" if c == "+" else "+")
        elif c in "&|" and _is_binary(text, mask, i):
            add("bit", i, i + 1, "|" if c == "&" else "&")
        elif c == "~":
            add("bit", i, i + 1, "")
        i += 1

    for m in INT_RE.finditer(text):
        s = m.start(1)
        if not mask[s]:
            continue
        lit, suffix = m.group(1), m.group(2)
        # Array sizes and bit-field widths in declarations compile to the
        # same code paths only by accident; they are fine to mutate.
        # C's bases: 0x hexadecimal, a leading 0 octal (as a file mode).
        hexa = lit[:2].lower() == "0x"
        octal = not hexa and len(lit) > 1 and lit[0] == "0"
        v = int(lit, 16 if hexa else 8 if octal else 10)
        for d in (1, -1):
            nv = v + d
            if nv < 0:
                continue
            rep = ("0x%x" % nv if hexa else "0%o" % nv if octal
                   else str(nv)) + suffix
            add("const", s, m.end(2), rep)

    # if (cond) -> if (0): the branch never taken.
    for m in re.finditer(r"\bif\s*\(", text):
        s = m.end() - 1
        if not mask[s]:
            continue
        e = _match_paren(text, mask, s)
        if e > s + 1:
            add("cond", s + 1, e, "0")

    # Swapped arguments: the first two of a call.
    for m in IDENT_CALL_RE.finditer(text):
        name = m.group(1)
        if name in KEYWORDS or not mask[m.start(1)]:
            continue
        # A function's definition or prototype starts its line (kernel
        # style); swapping its parameters is a type error, not a mutant.
        ls = text.rfind("\n", 0, m.start()) + 1
        if ls < len(text) and not text[ls].isspace():
            continue
        o = m.end() - 1
        e = _match_paren(text, mask, o)
        if e < 0:
            continue
        spans = _split_args(text, mask, o, e)
        if len(spans) < 2:
            continue
        (a0, a1), (b0, b1) = spans[0], spans[1]
        a, b = text[a0:a1].strip(), text[b0:b1].strip()
        if not a or not b or a == b:
            continue
        seg = text[a0:b1]
        new = seg.replace(a, "\0A", 1)
        idx = new.rfind(b)
        new = new[:idx] + a + new[idx + len(b):]
        new = new.replace("\0A", b, 1)
        add("args", a0, b1, new)

    out.sort(key=lambda m: (m.start, m.end, m.op, m.repl))
    return out
