# SPDX-License-Identifier: GPL-2.0
"""Persistent worker trees of the mutation tester (scripts/mutate/run.py).

Each worker has one copy of the pristine tree, built once and its suites
run once (which builds every variant they use: ASan, TSan, the model...),
then kept: a mutant is written into it, the layer rebuilt (make rebuilds
only what depends on the changed file: the Makefiles compile with -MMD and
read the dependency files back), its suites run, and the original text
written back.  The .d files name the tree's own absolute paths, which is
why a worker builds in place and is never a copy of another built tree
(a copy would keep the other tree's paths in its dependency rules and
miss a changed header).

A rewritten source gets an mtime past every build output, so make
rebuilds what depends on it, mutant and original alike.  When a mutant
may have left anything behind (a timeout: a suite killed mid-write; a
file outside build/ that differs from the pristine tree; a source that
could not be written back), the tree is replaced by the copy taken right
after its set-up, at the same path, so every absolute path in it is right.
"""

import os
import shutil
import subprocess
import time

# Build output: changed by every build, not compared with the pristine tree.
OUTPUT_DIRS = ("build",)


def copy_tree(src, dst):
    subprocess.run(["cp", "-a", src + "/.", dst], check=True)


def suite_order(suites, seconds):
    """The suites fastest first by their pristine seconds.  Any failing
    suite kills a mutant, so the order changes only how soon a killed one
    is known.  Equal times keep the listed order; a suite without a time
    goes last."""
    pos = {s: i for i, s in enumerate(suites)}
    return sorted(suites, key=lambda s: (s not in seconds,
                                         seconds.get(s, 0.0), pos[s]))


def manifest(tree):
    """What the tree holds outside its build output: relative path ->
    ('f', size, mtime_ns) for a file, ('l', target) for a symbolic link,
    ('d',) for a directory (a directory's mtime changes whenever a suite
    makes and removes its temporary directory in it, so only its being
    there counts)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(tree):
        rel = os.path.relpath(dirpath, tree)
        rel = "" if rel == "." else rel + "/"
        if not rel:
            dirnames[:] = [d for d in dirnames if d not in OUTPUT_DIRS]
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            if os.path.islink(p):
                out[rel + name] = ("l", os.readlink(p))
            elif os.path.isdir(p):
                out[rel + name] = ("d",)
            else:
                out[rel + name] = ("f", st.st_size, st.st_mtime_ns)
    return out


def tree_changes(before, after):
    """Paths added, removed or changed from manifest before to after."""
    return sorted(p for p in set(before) | set(after)
                  if before.get(p) != after.get(p))


def must_reset(timed_out, changes, restored):
    """Whether the worker tree must be replaced by its pristine built copy
    before the next mutant: after a timeout (whatever was killed may have
    been writing anywhere, build output included), when a file outside
    the build output is not as in the pristine tree, or when the mutated
    source could not be given back its text with a fresh mtime."""
    return bool(timed_out or changes or not restored)


def newest_mtime(dirs):
    """The newest mtime (ns) of any file under dirs; 0 if none."""
    newest = 0
    for d in dirs:
        for dirpath, _, filenames in os.walk(d):
            for name in filenames:
                try:
                    m = os.lstat(os.path.join(dirpath, name)).st_mtime_ns
                except OSError:
                    continue
                newest = max(newest, m)
    return newest


def fresh_stamp(now_ns, newest_output_ns):
    """The mtime to give a rewritten source, or None when there is none
    to give: now, past every build output, so make never takes an object
    built from the other text for up to date.  A build output stamped
    after now (a clock set back) would be taken for newer than what is
    rebuilt from the source (make would recompile the object but not
    relink the program): no stamp, the tree must be reset.  (File times
    come from a coarse clock, never ahead of time.time_ns(); an equal one
    gets the next nanosecond.)"""
    if newest_output_ns > now_ns:
        return None
    return max(now_ns, newest_output_ns + 1)


def write_source(path, text, output_dirs):
    """Write text to path with an mtime newer than every file under
    output_dirs.  A new file renamed into place: nothing can see half a
    source.  Returns whether the mtime is newer (False: reset the tree)."""
    mode = os.stat(path).st_mode & 0o7777
    tmp = path + ".mutate-tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)
    newest = newest_mtime(output_dirs)
    stamp = fresh_stamp(time.time_ns(), newest)
    if stamp is None:
        return False
    os.utime(path, ns=(stamp, stamp))
    # (A file system coarser than the stamp could have truncated it.)
    return os.stat(path).st_mtime_ns > newest


class WorkerTree:
    """One worker's tree, at a fixed path: built once from the pristine
    sources (base), then kept from mutant to mutant."""

    def __init__(self, base, path):
        self.base = base
        self.path = path
        self.built = path + ".built"   # the tree right after set-up
        self.pristine = None           # its manifest
        self.current = None            # the manifest the tree should have
        self.resets = 0

    def outputs(self):
        return [os.path.join(self.path, d) for d in OUTPUT_DIRS]

    def set_up(self, prepare):
        """Copy the pristine sources, run prepare(tree) (the builds and
        suites of the layers; False: the pristine tree fails), then keep a
        copy of the built tree for resets."""
        os.makedirs(self.path)
        copy_tree(self.base, self.path)
        if not prepare(self.path):
            return False
        os.makedirs(self.built)
        copy_tree(self.path, self.built)
        self.pristine = manifest(self.path)
        self.current = dict(self.pristine)
        return True

    def put(self, rel, text):
        """Write the mutant's text of rel (a source of the tree); a tree
        whose build output is stamped in the future is reset first."""
        for _ in range(2):
            if write_source(os.path.join(self.path, rel), text,
                            self.outputs()):
                return
            self.reset()
        raise OSError("%s: cannot give it an mtime past the build output"
                      % rel)

    def give_back(self, rel, text, timed_out):
        """Write rel's original text back and check the tree: returns the
        paths that made a reset necessary (empty: the tree is ready for
        the next mutant), after resetting it."""
        restored = False
        try:
            restored = write_source(os.path.join(self.path, rel), text,
                                    self.outputs())
        except OSError:
            pass
        now = manifest(self.path)
        expect = dict(self.current)
        if rel in now:
            expect[rel] = now[rel]
        changes = tree_changes(expect, now)
        if not must_reset(timed_out, changes, restored):
            self.current = now
            return []
        self.reset()
        why = changes or (["timeout"] if timed_out else [rel])
        return why

    def reset(self):
        """Replace the tree by its copy taken after set-up (same path:
        the dependency files' absolute paths stay right)."""
        shutil.rmtree(self.path)
        os.makedirs(self.path)
        copy_tree(self.built, self.path)
        self.current = dict(self.pristine)
        self.resets += 1
