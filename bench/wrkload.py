"""The load of bench/loadgen.py driven by wrk instead (`bench/run.py --client wrk`): a C
client whose own CPU is a small part of what the machine spends, as the held-out bench of
issue 41 drives it.

wrk runs once a phase, `--connections` keep-alive connections over `--threads` threads, for
the phase's seconds. Its Lua script (below) posts pre-dealt 7-spot round reports (the same
templates as loadgen's, one per line in a file) under round ids that no run repeats, or
`GET /healthz`; it counts each status and, at the end, prints one JSON line: the requests
answered, the 200s, the statuses and socket errors, and every latency recorded (wrk's
histogram, microseconds with their counts). wrk cannot stop at a number of requests: a
phase asked for a limit (the MONITOR sample) runs one second instead, and a phase's seconds
are whole (wrk's `-d`): each is rounded, and the rate is taken over what wrk measured.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from itertools import count
from pathlib import Path

from loadgen import ROUND_PLACEHOLDER, PhaseResult, Target, round_templates

SCRIPT = r"""
local kind, prefix = os.getenv("WRK_KIND"), os.getenv("WRK_PREFIX")
local auth = os.getenv("WRK_AUTH")
local threads, next_id = {}, 0

function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

local templates, seq, mine, headers = {}, 0, "", {}
function init(args)
  statuses, ok = {}, 0
  mine = prefix .. "-" .. tid .. "-"
  if kind == "rounds" then
    for line in io.lines(os.getenv("WRK_TEMPLATES")) do
      local before, after = line:match("^(.-)\t(.*)$")
      templates[#templates + 1] = {before, after}
    end
    headers = {["Authorization"] = "Bearer " .. auth, ["Content-Type"] = "application/json"}
  end
end

function request()
  if kind ~= "rounds" then return wrk.format("GET", "/healthz") end
  seq = seq + 1
  local t = templates[(seq + tid * 977) % #templates + 1]
  return wrk.format("POST", "/v1/rounds", headers, t[1] .. mine .. seq .. t[2])
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 200 then ok = ok + 1 end
end

function done(summary, latency, requests)
  local all_ok, by_status = 0, {}
  for _, thread in ipairs(threads) do
    all_ok = all_ok + thread:get("ok")
    for s, n in pairs(thread:get("statuses")) do
      by_status[tostring(s)] = (by_status[tostring(s)] or 0) + n
    end
  end
  local parts = {}
  for s, n in pairs(by_status) do parts[#parts + 1] = string.format('"%s":%d', s, n) end
  local lat = {}
  for i = 1, #latency do  -- each distinct latency recorded, with its count
    local value, n = latency(i)
    lat[#lat + 1] = string.format("[%d,%d]", value, n)
  end
  local e = summary.errors
  io.write(string.format(
    '\nWRK-JSON {"requests":%d,"ok":%d,"duration_us":%d,"statuses":{%s},' ..
    '"socket_errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},"latency":[%s]}\n',
    summary.requests, all_ok, summary.duration, table.concat(parts, ","),
    e.connect, e.read, e.write, e.timeout, table.concat(lat, ",")))
end
"""

RUNS = count(1)


class WrkLoad:
    """LoadGenerator's interface (run, pids, close) over one wrk process a phase."""

    def __init__(self, target: Target, concurrency: int, threads: int, seed: int = 1) -> None:
        wrk = shutil.which("wrk")
        if wrk is None:
            raise SystemExit("--client wrk: wrk is not on PATH (Debian: apt-get install wrk)")
        self.wrk, self.target = wrk, target
        self.concurrency, self.threads = concurrency, max(1, min(threads, concurrency))
        self.dir = Path(tempfile.mkdtemp(prefix="bench-wrk-"))
        self.script = self.dir / "load.lua"
        self.script.write_text(SCRIPT)
        self.templates = self.dir / "templates.tsv"
        lines = []
        for _, before, after in round_templates(target, seed, 2048):
            assert b"\t" not in before + after and ROUND_PLACEHOLDER.encode() not in after
            lines.append(before.decode() + "\t" + after.decode())
        self.templates.write_text("\n".join(lines) + "\n")
        self.cpu_seconds = 0.0  # the wrk processes' CPU so far (their rusage)

    @property
    def pids(self) -> list[int]:
        return []  # a phase's wrk has exited by the time anyone samples: see cpu_seconds

    def client_cpu_seconds(self) -> float:
        return self.cpu_seconds

    def run(self, kind: str, seconds: float, limit_per_thread: int = 2**62) -> PhaseResult:
        if limit_per_thread < 2**62:
            seconds = min(seconds, 1.0)
        env = {
            **os.environ,
            "WRK_KIND": kind,
            "WRK_PREFIX": f"{self.target.run_tag}-k{next(RUNS)}",
            "WRK_AUTH": self.target.table_secret,
            "WRK_TEMPLATES": str(self.templates),
        }
        command = [
            self.wrk, "-t", str(self.threads), "-c", str(self.concurrency),
            "-d", f"{max(1, round(seconds))}s", "--timeout", "10s", "-s", str(self.script),
            f"http://{self.target.host}:{self.target.port}",
        ]  # fmt: skip
        started = time.monotonic()
        # into files, not pipes: wrk's one line lists every distinct latency, often more
        # than a pipe holds, and wrk would wait on a reader that waits for it to exit
        out_path, err_path = self.dir / "wrk.out", self.dir / "wrk.err"
        with out_path.open("w") as out_file, err_path.open("w") as err_file:
            proc = subprocess.Popen(command, env=env, stdout=out_file, stderr=err_file)
            _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out, err = out_path.read_text(), err_path.read_text()
        self.cpu_seconds += usage.ru_utime + usage.ru_stime
        line = next((x for x in out.splitlines() if x.startswith("WRK-JSON ")), None)
        if proc.returncode != 0 or line is None:
            raise RuntimeError(f"wrk failed ({proc.returncode}): {err.strip() or out.strip()}")
        data = json.loads(line[len("WRK-JSON ") :])
        errors = {f"HTTP {s}": n for s, n in data["statuses"].items() if s != "200"}
        errors.update({f"socket {k}": n for k, n in data["socket_errors"].items() if n})
        latencies = sorted(v for v, n in data["latency"] for _ in range(n))
        elapsed = data["duration_us"] / 1e6 or (time.monotonic() - started)
        return PhaseResult(
            kind=kind,
            requests=int(data["requests"]),
            ok=int(data["ok"]),
            replayed=0,  # bodies are not read: a round answered 200 counts as settled
            jackpot_rounds=0,
            errors=errors,
            elapsed=elapsed,
            latencies_us=latencies,
        )

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
