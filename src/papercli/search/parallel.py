"""Whoosh's multiprocess writer, made safe to interrupt.

Whoosh's ``MpWriter`` hands batches of documents to indexing processes. As shipped:

- its ``cancel()`` only flips a flag in the parent's copy of each process object, so the
  children never hear of it: they wait on their job queue forever, holding the command's
  stdout (``papers ingest … | cat`` never ended) and the index's files;
- Ctrl-C reaches every process of the terminal's process group, and each child printed a
  ``KeyboardInterrupt`` traceback of its own;
- the children came from ``fork`` (the default start method), so each shared, and its
  garbage collector soon copied, everything the parent held (505 MB resident each at
  100,000 papers).

Here the children start from a fork server (where there is one) through a context of
their own, without changing the process's default start method; they ignore SIGINT from
birth (the parent, which Ctrl-C interrupts, cancels them); and ``cancel()`` terminates
and reaps them. As under spawn, each child imports the program's main module: a script of one's own
that indexes 1,000 papers or more needs the ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import multiprocessing
import signal

from whoosh.multiproc import MpWriter, SubWriterTask
from whoosh.writing import SegmentWriter


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else None)


def _start_fork_server() -> None:
    """Start the fork server with SIGINT ignored, so that the indexing processes it forks
    ignore Ctrl-C from their first instruction: the server hands its children the SIGINT
    disposition it was started with, and they take ~100 ms to reach ``_Task.run``. Only
    possible from the main thread (elsewhere the server starts on first use as usual)."""
    if _context().get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        return
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


class _Task(SubWriterTask):
    """One indexing process: Ctrl-C is for the parent, which then cancels this one."""

    @staticmethod
    def _Popen(process_obj):
        return _context().Process._Popen(process_obj)  # started the context's way

    def run(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        super().run()


class ParallelWriter(MpWriter):
    """``MpWriter`` whose processes start from a fork server and stop when cancelled."""

    def __init__(self, ix, procs: int, batchsize: int = 100, multisegment: bool = False,
                 **kwargs) -> None:  # fmt: skip
        # MpWriter.__init__, but with queues of our own context: its own calls the default
        # context's Queue(), which fixes the process's start method for good.
        SegmentWriter.__init__(self, ix, **kwargs)
        _start_fork_server()
        self.context = _context()
        self.procs, self.batchsize, self.subargs = procs, batchsize, kwargs
        self.multisegment = multisegment
        self.tasks = []
        self.docbuffer = []
        self._grouping = 0
        self._added_sub = False
        # Jobs go straight into the pipe (a SimpleQueue has no feeder thread): Ctrl-C in
        # the middle of Queue.put() can leave its lock held, and the exit handler that
        # flushes a Queue then waits on that lock forever. Each job is one temporary
        # file's name, so an unbounded queue costs no memory.
        self.jobqueue = self.context.SimpleQueue()
        self.resultqueue = self.context.Queue()

    def _new_task(self):
        task = _Task(self.storage, self.indexname, self.jobqueue, self.resultqueue,
                     self.subargs, self.multisegment)  # fmt: skip
        self.tasks.append(task)
        task.start()
        return task

    def commit(self, *args, **kwargs) -> None:
        try:
            super().commit(*args, **kwargs)
        except BaseException:  # Ctrl-C while merging: no child may outlive the command
            self._stop_tasks()
            raise

    def cancel(self) -> None:
        try:
            self._stop_tasks()
        finally:
            super().cancel()

    def _stop_tasks(self) -> None:
        started = [task for task in self.tasks if task.pid is not None]  # (Ctrl-C may have
        for task in started:  # come while one was starting)
            if task.is_alive():
                task.terminate()
        for task in started:
            task.join(timeout=10)
            if task.is_alive():
                task.kill()
                task.join()
