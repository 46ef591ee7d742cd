"""SIGTERM (`kill`, `timeout`) and SIGHUP (a closed terminal) stop any command as Ctrl-C does: one line, no
traceback, a shell's exit code; a solve's best is still written."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cli

ROOT = Path(__file__).resolve().parents[1]
#: the `factoryfun` command, run from the checkout (as installed, but without relying on the venv's script)
FACTORYFUN = [sys.executable, "-c", "from cli import main; main()"]


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_stop_while_the_modules_load_exits_with_the_shells_code(signum, code):
    """During the imports there is no command yet to stop: exit 128 + the signal, quietly (QA: SIGTERM in the
    first second killed the process with nothing said, as Python's default does)."""
    with pytest.raises(SystemExit) as leaving:
        cli._leave_while_starting(signum, None)
    assert leaving.value.code == code


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_stops_a_command_without_a_solver_like_ctrl_c(tmp_path, signum, code):
    """bench-checker has no stop handler of its own: SIGTERM (SIGHUP) after start-up says "interrupted" and exits
    143 (129); SIGHUP killed it on the spot."""
    running = subprocess.Popen([*FACTORYFUN, "bench-checker",
                                "--layouts", "1000000", "--out", str(tmp_path / "c.csv")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    time.sleep(4.0)   # past the imports (about a second), into the run
    running.send_signal(signum)
    out, err = running.communicate(timeout=30)
    assert running.returncode == code
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_plan_stopped_while_bounding_exits_cleanly(tmp_path, signum):
    """Stopped while CP-SAT bounds the final score, `plan` shows its plan and exits 0 (it aborted with exit 134,
    "terminate called without an active exception": CP-SAT still ran in a thread as the process ended)."""
    sequence = tmp_path / "s.json"
    subprocess.run([*FACTORYFUN, "sequence", "random", "--seed", "3",
                    "--solo", "--out", str(sequence)], cwd=ROOT, check=True, capture_output=True)
    running = subprocess.Popen([*FACTORYFUN, "plan", str(sequence),
                                "--time-limit", "120", "--workers", "1", "--no-show"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    said = running.stderr.readline()   # the bound's line comes before its CP-SAT starts
    assert "bounding the final score" in said
    time.sleep(0.2)
    running.send_signal(signum)
    out, err = running.communicate(timeout=30)
    assert running.returncode == 0, err
    assert "terminate called" not in err and "(interrupted)" in out


def stopped_while_planning(args: list[str], after: float, signum: int) -> tuple[subprocess.Popen, str, str]:
    """Run a planning command (120 s, one worker), send `signum` `after` seconds past its bound's line (the lines
    before it, e.g. "the given game: ...", are skipped); the process and what it printed."""
    running = subprocess.Popen([*FACTORYFUN, *args, "--time-limit", "120", "--workers", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    for line in running.stderr:
        if "bounding the final score" in line:
            break
    time.sleep(after)
    running.send_signal(signum)
    out, err = running.communicate(timeout=30)
    return running, out, err


def test_a_stopped_plan_in_json_says_so_in_the_document_and_on_standard_error(tmp_path):
    """QA: `plan --json` stopped by Ctrl-C wrote a document like one that ran to its limit, and said nothing."""
    sequence = tmp_path / "s.json"
    subprocess.run([*FACTORYFUN, "sequence", "random", "--seed", "3",
                    "--solo", "--out", str(sequence)], cwd=ROOT, check=True, capture_output=True)
    running, out, err = stopped_while_planning(["plan", str(sequence), "--json"], 3.0, signal.SIGINT)
    assert running.returncode == 0, err
    assert json.loads(out)["result"]["interrupted"] is True
    assert "interrupted: the plan is the best found so far" in err


def test_an_analysis_stopped_while_planning_says_so(tmp_path):
    """An interrupted `analyze` compares against the best plan found so far, and says so (as `solve` and `plan`
    do; QA: it said nothing)."""
    sequence, played = tmp_path / "s.json", tmp_path / "played.json"
    for args in (["sequence", "random", "--seed", "3", "--solo", "--out", str(sequence)],
                 ["plan", str(sequence), "--time-limit", "2", "--workers", "1", "--no-show", "--out", str(played)]):
        subprocess.run([*FACTORYFUN, *args], cwd=ROOT, check=True,
                       capture_output=True)
    running, out, err = stopped_while_planning(["analyze", str(played)], 4.0, signal.SIGTERM)
    assert running.returncode == 0, err
    assert "interrupted" in err and "share" in out


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_solve_stopped_while_it_starts_says_it_has_no_layout_yet(signum):
    """QA: stopped in its first seconds (the relaxation, with the triangle cuts for six machines), `solve` printed
    only "interrupted" and exited 130, where the README promises "no layout yet" and exit 1."""
    running = subprocess.Popen([*FACTORYFUN, "solve", "--board", "classic-A", "--machines",
                                "FF39,FF08,FF25,FF40,FF12,FF07", "--time-limit", "30", "--workers", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    said = running.stderr.readline()
    assert said.startswith("solving 6 machines")
    time.sleep(0.3)
    running.send_signal(signum)
    out, err = running.communicate(timeout=30)
    assert running.returncode == 1, err
    assert "UNKNOWN (interrupted)" in out and "no legal layout found before the interrupt" in out
    assert "Traceback" not in err


def test_cp_sat_loads_only_for_the_command_that_needs_it():
    """`solve` brought CP-SAT (and pandas) into every command's start: `factoryfun --version` took 1.07 s. It now
    loads when named, with Ctrl-C during its imports as quiet as during cli's own, and is still listed."""
    code = ("import signal, sys, click, cli\n"
            "assert 'ortools.sat.python.cp_model' not in sys.modules\n"
            "ctx = click.Context(cli.main)\n"
            "before = signal.getsignal(signal.SIGINT)\n"
            "assert 'solve' in cli.main.list_commands(ctx) and cli.main.get_command(ctx, 'solve') is not None\n"
            "assert 'ortools.sat.python.cp_model' in sys.modules and signal.getsignal(signal.SIGINT) is before\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_stop_while_a_command_loads_leaves_once_its_imports_are_done(signum, code):
    """QA: Ctrl-C raised inside CP-SAT's or pandas's compiled start-up became "ImportError: initialization failed"
    and a traceback; the stop is now kept until the command's imports end, then the command leaves quietly."""
    script = ("import importlib, os, signal, sys, click, cli\n"
              "real = importlib.import_module\n"
              "def stopped_midway(name, *rest):\n"
              f"    os.kill(os.getpid(), {int(signum)})\n"
              "    return real(name, *rest)\n"
              "importlib.import_module = stopped_midway\n"
              "ctx = click.Context(cli.main)\n"
              "try:\n"
              "    cli.main.get_command(ctx, 'puzzle')\n"
              "except SystemExit as leaving:\n"
              "    assert 'solver.puzzle_command' in sys.modules\n"
              "    sys.exit(leaving.code)\n"
              "sys.exit(99)\n")
    finished = subprocess.run([sys.executable, "-c", script], cwd=ROOT, timeout=60, capture_output=True, text=True)
    assert finished.returncode == code and "Traceback" not in finished.stderr


#: a solve long enough to be stopped: ten machines, 20 s, one worker
TEN_MACHINES = ["solve", "--board", "classic-A", "--machines", "FF39,FF08,FF25,FF04,FF32,FF14,FF03,FF06,FF28,FF10",
                "--time-limit", "20", "--workers", "1"]


def test_a_solve_whose_terminal_closes_still_writes_its_best(tmp_path):
    """A closed terminal (SIGHUP to the command, then its writes fail) stops a solve as Ctrl-C does: the best
    layout found is written to --out, legal, and the command exits 141, as for any reader gone. It used to die
    at once and write nothing, losing the whole search."""
    import os
    import pty
    import select

    out = tmp_path / "best.json"
    pid, terminal = pty.fork()
    if pid == 0:   # the child: the solve, on the pty's far side as its controlling terminal
        os.chdir(ROOT)
        os.execv(sys.executable, [*FACTORYFUN, *TEN_MACHINES, "--out", str(out)])
    seen = b""
    while b"best " not in seen:   # a first layout is found (its progress line), then the terminal closes
        ready, _, _ = select.select([terminal], [], [], 30)
        assert ready, seen
        seen += os.read(terminal, 65536)
    time.sleep(0.5)
    os.close(terminal)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 141
    checked = subprocess.run([*FACTORYFUN, "check", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0 and "legal" in checked.stdout


def test_a_solve_under_nohup_runs_on_past_a_hang_up(tmp_path):
    """`nohup` starts a command with SIGHUP ignored, so that it outlives its terminal: the solve leaves it so."""
    running = subprocess.Popen([*FACTORYFUN, *TEN_MACHINES[:-4], "--time-limit", "5", "--workers", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    assert running.stderr.readline().startswith("solving 10 machines")
    began = time.monotonic()
    time.sleep(0.5)
    running.send_signal(signal.SIGHUP)
    out, err = running.communicate(timeout=30)
    # it ran on to its time limit (a busy machine may find no layout in it: UNKNOWN, exit 1, still not stopped)
    assert running.returncode in (0, 1) and "interrupted" not in out + err and "status" in out
    assert time.monotonic() - began > 2.0   # (stopped, it would end within about 1 s)
