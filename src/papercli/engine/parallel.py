"""Whoosh's multiprocess writer, made safe to interrupt, to kill and to run out of disk.

Whoosh's ``MpWriter`` hands batches of documents to indexing processes. As shipped:

- its ``cancel()`` only flips a flag in the parent's copy of each process object, so the
  children never hear of it: they wait on their job queue forever, holding the command's
  stdout (``papers ingest … | cat`` never ended) and the index's files;
- a child that fails (a full disk) prints a traceback, and the parent either waits for it
  forever or commits an index without its part;
- Ctrl-C reaches every process of the terminal's process group, and each child printed a
  ``KeyboardInterrupt`` traceback of its own;
- the children came from ``fork`` (the default start method), so each shared, and its
  garbage collector soon copied, everything the parent held.

Here the children start from a fork server (where there is one) through a context of
their own, without changing the process's default start method; they ignore SIGINT from
birth (the parent, which Ctrl-C interrupts, cancels them) and exit when the parent dies,
however it died; a child that fails reports why to the parent, which stops and raises
``IndexingFailed`` instead of committing; and ``cancel()`` terminates and reaps them. As
under spawn, each child imports the program's main module: a script of one's own that
indexes 1,000 papers or more needs the ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import signal
import sys
import threading

from whoosh.multiproc import MpWriter, SubWriterTask
from whoosh.writing import SegmentWriter

from ..errors import PapersError
from .pool import install

FAILED = "failed"  # first item of the result a failing child sends instead of its segment
RECORD = 1  # a job's item: a record, to be made into its index document (0: a document)


class IndexingFailed(PapersError):
    """An indexing process could not finish its part (a full disk, say): nothing of this
    write reaches the index."""


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else None)


def _start_fork_server() -> None:
    """Start the fork server with SIGINT ignored, so that the indexing processes it forks
    ignore Ctrl-C from their first instruction: the server hands its children the SIGINT
    disposition it was started with, and they take a while to reach ``_Task.run``. Only
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


def _exit_with_parent() -> None:
    """In a child: exit as soon as the parent is gone (killed, say), rather than wait on the
    job queue forever holding the command's stdout and the index's files."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


@contextlib.contextmanager
def _signals_held():
    """Hold Ctrl-C and SIGTERM while a process is being started (they are delivered right
    after): interrupted between handing the process to the fork server and learning its
    pid, the parent could neither stop it nor wait for it, and the child, finding the
    parent's queues gone, printed a traceback of its own; interrupted while handing it
    over, the fork server printed one.

    This thread's signal mask is not enough: the system delivers a signal to a thread
    that does not block it (the progress bar's), and Python then runs the handler in this
    thread all the same. So the handlers are also replaced, for the moment, by one that
    notes the signal, and the signal is raised again once the process has started."""
    names = (signal.SIGINT, signal.SIGTERM)
    caught: list[int] = []
    foreign = any(signal.getsignal(n) is None for n in names)  # (set outside Python)
    if foreign or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {n: signal.signal(n, lambda signum, _frame: caught.append(signum)) for n in names}
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, set(names))
    except AttributeError:  # (no such call here)
        held = None
    try:
        yield
    finally:
        for n, handler in previous.items():
            signal.signal(n, handler)
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


class _Task(SubWriterTask):
    """One indexing process: Ctrl-C is for the parent, which then cancels this one; a
    failure is reported to the parent, not printed."""

    def __init__(self, *args, make_document=None) -> None:
        super().__init__(*args)
        self.make_document = make_document  # (a record's job item -> its document)

    @staticmethod
    def _Popen(process_obj):
        return _context().Process._Popen(process_obj)  # started the context's way

    def _process_file(self, path, doc_count) -> None:
        """Whoosh's, for jobs of documents and of records (``RECORD``), each a file in the
        parent's temporary folder (*path*), removed once read."""
        writer = self.writer
        with open(path, "rb") as f:
            for _ in range(doc_count):
                code, args = pickle.load(f)
                if code == RECORD:
                    args = self.make_document(*args)
                writer.add_document(**args)
        os.remove(path)

    def run(self) -> None:
        """``SubWriterTask.run`` for one segment per process. Its result is (runs its pool
        wrote, field names, segment), or ``FAILED`` and why."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _exit_with_parent()
        writer = None
        try:
            ix = self.storage.open_index(self.indexname)
            writer = self.writer = SegmentWriter(ix, _lk=False, **self.kwargs)
            install(writer, self.kwargs.get("limitmb", 128))  # (before its first document)
            while (job := self.jobqueue.get()) is not None:
                self._process_file(*job)
            segment = writer._finalize_segment()
            result = (writer.pool.written, writer.pool.fieldnames, segment)
        except Exception as exc:  # (the parent names it in its one line)
            errno = getattr(exc, "errno", None)
            reason = getattr(exc, "strerror", None) or f"{type(exc).__name__}: {exc}"
            result = (FAILED, (errno, reason), None)
        finally:  # (its segment is written, or never will be: its temporary folder goes)
            if writer is not None:
                with contextlib.suppress(OSError):
                    writer.temp_storage().destroy()
        self.resultqueue.put(result, timeout=5)
        if result[0] == FAILED:
            sys.exit(1)


class ParallelWriter(MpWriter):
    """``MpWriter`` whose processes start from a fork server, stop when cancelled or when
    the parent dies, and report their failures."""

    def __init__(
        self,
        ix,
        procs: int,
        batchsize: int = 100,
        multisegment: bool = True,
        make_document=None,
        **kwargs,
    ) -> None:
        # MpWriter.__init__, but with queues of our own context: its own calls the default
        # context's Queue(), which fixes the process's start method for good.
        SegmentWriter.__init__(self, ix, **kwargs)
        install(self, kwargs.get("limitmb", 128))  # (it merges small segments in its pool)
        if not multisegment:
            raise ValueError("ParallelWriter writes one segment per process")
        _start_fork_server()
        self.context = _context()
        self.procs, self.batchsize, self.subargs = procs, batchsize, kwargs
        self.make_document = make_document
        self.multisegment = True
        self.tasks = []
        self.docbuffer = []
        self._grouping = 0
        self._added_sub = False
        self._token, self._jobs = os.urandom(4).hex(), 0  # (names this writer's batches)
        self.runs_written: list[int] = []  # by each indexing process's pool, once committed
        # Jobs go straight into the pipe (a SimpleQueue has no feeder thread): Ctrl-C in
        # the middle of Queue.put() can leave its lock held, and the exit handler that
        # flushes a Queue then waits on that lock forever. Each job is one temporary
        # file's name, so an unbounded queue costs no memory.
        self.jobqueue = self.context.SimpleQueue()
        self.resultqueue = self.context.Queue()

    def _new_task(self):
        task = _Task(
            self.storage,
            self.indexname,
            self.jobqueue,
            self.resultqueue,
            self.subargs,
            self.multisegment,
            make_document=self.make_document,
        )
        self.tasks.append(task)
        with _signals_held():
            task.start()
        return task

    def add_record(self, rid: str, data: dict, stamp: list[int], replace: bool) -> None:
        """Index a record (``Record.to_dict()``, its file's stamp) as ``update_document``
        (*replace*) or ``add_document`` would its document, which an indexing process
        makes with ``make_document(rid, data, stamp)``: made in this process, matching
        a record's concepts kept the indexing processes waiting (BENCHMARKS.md)."""
        if replace:  # (update_document's way)
            with self.searcher() as searcher:
                for docnum in searcher._find_unique([("id", rid)]):
                    self.delete_document(docnum)
        self.docbuffer.append((RECORD, (rid, data, stamp)))
        if not self._grouping and len(self.docbuffer) >= self.batchsize:
            self._enqueue()
        self._added_sub = True

    def _enqueue(self) -> None:
        """Whoosh's, with each batch of documents in a file named by this writer (Whoosh
        names it at random) and handed over by its path."""
        self._raise_if_failed()  # never hand jobs to a process that has died
        self._jobs += 1
        name = f"{self._token}.{self._jobs}.doclist"
        with self.temp_storage().create_file(name).raw_file() as f:
            for item in self.docbuffer:
                pickle.dump(item, f, 2)
        if len(self.tasks) < self.procs:
            self._new_task()
        self.jobqueue.put((os.path.join(self.temp_storage().folder, name), len(self.docbuffer)))
        self.docbuffer = []

    def _raise_if_failed(self) -> None:
        dead = [t for t in self.tasks if t.exitcode not in (None, 0)]
        if dead:
            raise self._failure(self._reported_reason())

    def _reported_reason(self) -> tuple[int | None, str]:
        try:
            while True:
                kind, reason, _segment = self.resultqueue.get(timeout=0.5)
                if kind == FAILED:
                    return reason
        except queue.Empty:
            return None, "an indexing process ended unexpectedly"

    def _failure(self, reason: tuple[int | None, str]) -> IndexingFailed:
        _errno, text = reason
        return IndexingFailed(
            f"{text} while indexing in {self.storage.folder}; nothing of "
            "this write reached the index (the records are saved)"
        )

    def _commit(self, mergetype, optimize, merge) -> None:
        """``MpWriter._commit`` for one segment per process, which waits for each process's
        result while watching that it is alive, and commits nothing if one failed."""
        if self.docbuffer:
            self._enqueue()
        for _task in self.tasks:
            self.jobqueue.put(None)  # finish up
        finalsegments = self._merge_segments(mergetype, optimize, merge)
        results = self._results()
        self.runs_written = [runs for runs, _fields, _segment in results]
        finalsegments += [segment for _runs, _fields, segment in results]
        for task in self.tasks:
            task.join()
        if self._added:
            finalsegments.append(self._finalize_segment())
        else:
            self._close_segment()
        self._commit_toc(finalsegments)
        self._finish()

    def _results(self) -> list[tuple]:
        results = []
        while len(results) < len(self.tasks):
            try:
                result = self.resultqueue.get(timeout=0.5)
            except queue.Empty:
                if all(t.exitcode is not None for t in self.tasks):
                    ended = (None, "an indexing process ended without its part")
                    raise self._failure(ended) from None
                continue
            if result[0] == FAILED:
                raise self._failure(result[1])
            results.append(result)
        return results

    def commit(self, *args, **kwargs) -> None:
        try:
            super().commit(*args, **kwargs)
        except BaseException:  # Ctrl-C or a failure while merging: no child may outlive it
            self._stop_tasks()
            with contextlib.suppress(Exception):
                SegmentWriter.cancel(self)  # (releases the index's write lock)
            raise

    def cancel(self) -> None:
        try:
            self._stop_tasks()
        finally:
            super().cancel()

    def _stop_tasks(self) -> None:
        # (only those that started: Ctrl-C may have come while one was starting)
        started = [task for task in self.tasks if task.pid is not None]
        for task in started:
            if task.is_alive():
                task.terminate()
        for task in started:
            task.join(timeout=10)
            if task.is_alive():
                task.kill()
                task.join()
