"""The module and the command line agree: the same JSON for every kernel of the teaching set,
and the same check, occupancy and gpus answers."""

import json
import re
from pathlib import Path

import pytest

import simt

ROOT = Path(__file__).resolve().parents[2]


def launches():
    """(file, kernel) for every launch section of kernels/*.sk."""
    cases = []
    for path in sorted((ROOT / "kernels").glob("*.sk")):
        for name in re.findall(r"^launch\s+([A-Za-z_]\w*(?:<[^>]*>)?)", path.read_text(), re.M):
            cases.append((f"kernels/{path.name}", name))
    return cases


CASES = launches()


def test_the_teaching_set_is_found():
    # 32 files, four of them with two launch sections.
    assert len(CASES) == 36


def without_timing(v):
    """The JSON less its wall-clock field, the only one that changes from run to run."""
    v = dict(v)
    v.pop("timing")
    return v


@pytest.mark.parametrize("path,kernel", CASES, ids=[f"{p.split('/')[1]}:{k}" for p, k in CASES])
def test_run_json_equals_the_command_line(root, cli, path, kernel):
    done = cli("run", path, "--kernel", kernel, "--json")
    want = json.loads(done.stdout)
    if "error" in want:
        with pytest.raises(simt.SimtError) as e:
            simt.run(path, kernel=kernel)
        assert e.value.errors == want["errors"]
        assert e.value.exit == done.returncode
        return
    got = simt.run(path, kernel=kernel)
    assert without_timing(got.json) == without_timing(want)
    # The properties are the JSON's fields.
    assert got.counters == want["counters"]
    assert got.derived == want["derived"]
    assert got.races == want["races"]
    assert got.hints == want["hints"]
    assert got.occupancy == want["occupancy"]
    assert got.time == want["time"]
    assert got.ok == want["ok"]
    # The text report is what `simt run` prints (less the timing line).
    text = cli("run", path, "--kernel", kernel, "--color", "never").stdout
    strip = lambda t: re.sub(r"(?m)^timing .*\n", "", t)
    assert strip(got.report) == strip(text)


def test_check_equals_the_command_line(root, cli):
    for path in ["kernels/vecadd.sk", "kernels/conv2d.sk"]:
        want = json.loads(cli("check", path, "--json").stdout)
        assert simt.check(path) == want
        # Source text names itself <string>.
        text = (ROOT / path).read_text()
        assert simt.check(text) == dict(want, file="<string>")


def test_occupancy_equals_the_command_line(cli):
    want = json.loads(cli("occupancy", "--threads", "96", "--regs", "40", "--smem", "4096", "--blocks", "1000", "--bytes-per-request", "128", "--gpu", "a100", "--json").stdout)
    got = simt.occupancy(96, regs=40, smem=4096, blocks=1000, bytes_per_request=128, gpu="a100")
    assert got == want
    assert got["blocks_per_sm"] > 0


def test_gpus_equal_the_command_line(cli):
    want = json.loads(cli("gpus", "--json").stdout)["gpus"]
    got = simt.gpus()
    assert got == want
    assert "h100-sxm" in [g["preset"] for g in got]
