"""A bot in a process of its own: pipes, deadlines, size and memory limits, reaping.

``BotProcess(argv, log_path, limits)`` starts ``argv`` in a new session (its own process
group), its stderr appended to ``log_path``, its address space capped at
``limits.memory_mb`` and the files it writes (its log included) at ``limits.log_mb``
(``resource.setrlimit`` ``RLIMIT_AS`` and ``RLIMIT_FSIZE`` in the child: a bot that
writes past it is killed by the system, a crash).  The match talks to
it only through bytes:

- ``send(text, deadline)`` writes without blocking past ``deadline`` (a bot that does not
  read its stdin cannot stall the match; what is not written yet goes first next time);
- ``read(deadline)`` returns ``(status, text)``: ``OK`` and one message (up to the
  protocol's terminator: a newline, or a line holding only ``.``), ``TIMEOUT``,
  ``OVERSIZE`` (more than ``limits.message_bytes`` without a terminator: the rest of that
  message is skipped) or ``CLOSED`` (the bot closed its stdout or exited);
- ``close()`` closes its stdin, gives it ``EXIT_GRACE_S`` to exit, then kills its whole
  process group (forked children too) and reaps it by its pid.  Always called: a match
  never leaves a process behind.

``Limits`` holds a player's limits; each protocol gives its contest's defaults.
"""
import os
import resource
import select
import signal
import subprocess
import time
from dataclasses import dataclass

OK, TIMEOUT, OVERSIZE, CLOSED = "ok", "timeout", "oversize", "closed"
LINE = b"\n"                 # a message is one line
DOT = b"\n.\n"               # a message ends with a line holding only "."
READ_CHUNK = 65536
EXIT_GRACE_S = 0.2           # a closed bot may exit by itself this long before the kill
REAP_TIMEOUT_S = 5.0
MIB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Per player: ``turn_s`` seconds for a reply, ``start_s`` for the first exchange
    (start-up included), ``game_s`` for all replies of a game together (None: no limit),
    ``message_bytes`` for one reply, ``memory_mb`` of address space and ``log_mb`` for
    the files it writes (None: no limit)."""
    turn_s: float = 1.0
    start_s: float = 10.0
    game_s: float = None
    message_bytes: int = 1 << 20
    memory_mb: int = 2048
    log_mb: int = 64

    def replace(self, **changes):
        """A copy with the fields in ``changes`` (None values ignored)."""
        fields = dict(self.__dict__)
        fields.update({k: v for k, v in changes.items() if v is not None})
        return Limits(**fields)


def _set_limits(limits):
    """The function the child runs before the program: its resource limits."""
    caps = [(resource.RLIMIT_AS, limits.memory_mb), (resource.RLIMIT_FSIZE, limits.log_mb)]

    def apply():
        for which, megabytes in caps:
            if megabytes is not None:
                size = int(megabytes) * MIB
                resource.setrlimit(which, (size, size))
    return apply


class BotProcess:
    def __init__(self, argv, log_path, limits, terminator=LINE, cwd=None, env=None):
        self.argv = list(argv)
        self.limits = limits
        self.terminator = terminator
        self._log = open(log_path, "ab")
        self._in_buf = b""
        self._out_buf = b""
        self._skipping = False        # inside an oversized message: drop up to its end
        self._eof = False
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                cwd=cwd, env=env, start_new_session=True,
                preexec_fn=_set_limits(limits))
        except OSError:
            self._log.close()
            raise
        self.pid = self.proc.pid
        self._stdin = self.proc.stdin.fileno()
        self._stdout = self.proc.stdout.fileno()
        os.set_blocking(self._stdin, False)
        os.set_blocking(self._stdout, False)

    @property
    def running(self):
        return self.proc.poll() is None

    @property
    def returncode(self):
        return self.proc.poll()

    def drain(self):
        """Drop what the bot wrote so far (a late reply to an earlier message)."""
        self._pump(0.0)
        self._in_buf = b""

    def send(self, text, deadline):
        """Write ``text``; False if the bot's stdin is closed or the deadline passed first."""
        self._out_buf += text.encode() if isinstance(text, str) else text
        while self._out_buf:
            try:
                written = os.write(self._stdin, self._out_buf)
                self._out_buf = self._out_buf[written:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                self._out_buf = b""
                return False
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            select.select([], [self._stdin], [], left)
        return True

    def _pump(self, timeout):
        """Read what is there (waiting up to ``timeout``); whether anything came (the end
        of the file counts)."""
        ready, _, _ = select.select([self._stdout], [], [], max(0.0, timeout))
        if not ready:
            return False
        try:
            chunk = os.read(self._stdout, READ_CHUNK)
        except BlockingIOError:
            return False
        except OSError:
            chunk = b""
        self._eof = not chunk
        self._in_buf += chunk
        return True

    def _take(self):
        """(status, text) of a whole message in the buffer, or None."""
        while True:
            end = self._in_buf.find(self.terminator)
            if self.terminator == DOT and self._in_buf.startswith(b".\n"):
                end, size = 0, 2              # an empty message: just the "." line
            else:
                size = len(self.terminator)
            if end < 0:
                if len(self._in_buf) > self.limits.message_bytes:
                    self._in_buf = self._in_buf[-len(self.terminator):]
                    if not self._skipping:
                        self._skipping = True
                        return OVERSIZE, None
                return None
            message, self._in_buf = self._in_buf[:end], self._in_buf[end + size:]
            if self._skipping:               # the tail of an oversized message
                self._skipping = False
                continue
            if len(message) > self.limits.message_bytes:
                return OVERSIZE, None
            if self.terminator == DOT:       # the "." line's newline stays for the next one
                message += b"\n"
            return OK, message.decode("utf-8", errors="replace")

    def read(self, deadline):
        """The next message: ``(status, text)`` (see the module doc).  What the bot wrote
        before the call counts even when the deadline has passed (the match reads its
        seats one after another)."""
        while True:
            taken = self._take()
            if taken is not None:
                return taken
            if self._eof:
                return CLOSED, None
            if not self._pump(deadline - time.monotonic()) and time.monotonic() >= deadline:
                return TIMEOUT, None

    def close(self):
        """Close the pipes, kill the process group, reap the process; the exit code."""
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self.proc.wait(EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.pid, signal.SIGKILL)   # children it forked die with it
        except (ProcessLookupError, PermissionError):
            pass
        try:
            code = self.proc.wait(REAP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            code = None
        self._log.close()
        return code
