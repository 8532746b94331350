"""A killed computer worker's search processes end with it (they were found orphaned)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

BASE = Path(__file__).resolve().parents[3]

SCRIPT = """
import multiprocessing, os, sys, time
from concurrent.futures import ProcessPoolExecutor
from daifugo_site.play import thinking
pool = ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn"),
                           initializer=thinking.warm_up)
pids = set()
for _ in range(8):
    pids.add(pool.submit(os.getpid).result())
print(" ".join(map(str, sorted(pids))), flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purpose (its parent, init, reaps it).
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def test_pool_processes_exit_when_their_worker_is_killed() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], cwd=BASE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert pids and all(_alive(p) for p in pids)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(p) for p in pids), pids
    finally:
        parent.kill()
