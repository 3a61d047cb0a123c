"""The HTML report: the same page from the module and `simt run --html`, well-formed, with its
summary, heat map and lane maps, drawn by headless Chromium into a picture that is not blank."""

import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

import simt

VOID = {"meta", "br", "hr", "img", "input", "link", "rect", "line"}


class Page(HTMLParser):
    """Every element with its attributes and parents; unbalanced tags are recorded."""

    def __init__(self):
        super().__init__()
        self.elements = []
        self.stack = []
        self.unbalanced = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs, [t for t, _ in self.stack]))
        if tag not in VOID:
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), [t for t, _ in self.stack]))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.unbalanced.append(tag)
        else:
            self.stack.pop()

    def find(self, tag, **attrs):
        return [a for t, a, _ in self.elements if t == tag and all(a.get(k.rstrip("_")) == v for k, v in attrs.items())]

    def classed(self, tag, cls):
        return [a for t, a, _ in self.elements if t == tag and cls in (a.get("class") or "").split()]


def parse(text):
    p = Page()
    p.feed(text)
    p.close()
    assert p.unbalanced == [] and p.stack == [], (p.unbalanced, p.stack)
    return p


@pytest.fixture
def tiled(root):
    """transpose_tiled: a 32-way bank conflict on line 47."""
    return simt.run("kernels/transpose_tiled.sk")


def test_the_page_has_its_main_elements(tiled):
    page = parse(tiled.html(full=True))
    assert len(page.find("table", id="summary")) == 1
    labels = [a for t, a, _ in page.elements if t == "td" and a.get("class") == "label"]
    assert len(labels) >= 12
    # One row per line of the kernel (32 to 49), and the total.
    rows = [a["id"] for a in page.find("tr") if a.get("id", "").startswith("L")]
    assert rows == [f"L{n}" for n in range(32, 50)]
    assert len(page.classed("tr", "total")) == 1
    # Heat per row: sectors/request, wavefronts/instruction, divergence. Line 47's 32
    # wavefronts of an ideal 1 are fully hot (log2 32 / log2 32); the total's 16.5 are
    # log2(16.5) / 5 = 0.81; every load and store moves its ideal 4 sectors.
    heat = {}
    for tag, attrs, parents in page.elements:
        if tag == "tr":
            row = attrs.get("id") or attrs.get("class")
            heat[row] = []
        elif tag == "td" and "heat" in (attrs.get("class") or ""):
            heat[row].append(attrs["data-heat"])
    assert heat["L47"] == ["0", "1.00", "0"]
    assert heat["L39"] == ["0", "0", "0"]
    assert heat["total"] == ["0", "0.81", "0"]
    # One lane map per memory instruction: a global load and a shared store on line 39, a shared
    # load and a global store on line 47; 32 lanes each.
    maps = page.classed("figure", "lanemap")
    assert [(m["data-line"], m["data-space"]) for m in maps] == [
        ("39", "global"), ("39", "shared"), ("47", "shared"), ("47", "global")]
    assert [m["data-cost"] for m in maps] == ["4", "1", "32", "4"]
    assert len(page.find("svg")) == 4
    assert len(page.classed("g", "lane")) == 128
    # The transposing load: all 32 lanes in bank 0, the only conflicting bank.
    assert len(page.classed("g", "conflict")) == 1
    # Self-contained: no script, no stylesheet or image from elsewhere.
    assert page.find("script") == [] and page.find("link") == [] and page.find("img") == []
    assert "hints" in [a.get("id") for t, a, _ in page.elements]


def test_one_renderer_for_the_cli_notebooks_and_files(tiled, cli, tmp_path):
    out = tmp_path / "cli.html"
    done = cli("run", "kernels/transpose_tiled.sk", "--html", str(out))
    assert done.returncode == 0, done.stderr
    page = tiled.html(full=True)
    assert out.read_text() == page
    tiled.save_html(tmp_path / "py.html")
    assert (tmp_path / "py.html").read_text() == page
    # In Jupyter: the page's <div>, styles scoped to it.
    fragment = tiled._repr_html_()
    assert fragment == tiled.html()
    assert fragment.startswith('<div class="simt-report">')
    assert fragment in page


def pixels(png):
    """The RGB pixels of an 8-bit RGB or RGBA PNG, as rows of (r, g, b)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return rows


def near(p, q, tol=8):
    return all(abs(x - y) <= tol for x, y in zip(p, q))


def test_chromium_draws_the_report(tiled, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("headless Chromium is needed: apt-get install chromium (scripts/python-test installs it)")
    page = tmp_path / "report.html"
    tiled.save_html(page)
    shot = tmp_path / "report.png"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", f"--screenshot={shot}",
             "--window-size=1200,1800", page.as_uri()],
            capture_output=True, timeout=120, check=False,
        )
    assert shot.exists(), "Chromium wrote no screenshot"
    rows = pixels(shot.read_bytes())
    assert (len(rows[0]), len(rows)) == (1200, 1800)
    flat = [p for row in rows[::4] for p in row[::4]]
    white = sum(1 for p in flat if p == (255, 255, 255))
    # Not blank: text, tables and maps cover a good part of the page.
    assert white < 0.97 * len(flat)
    assert len(set(flat)) > 50
    # The hottest cell, rgba(220,38,38,0.85) over white, and the lanes' blue (#4078c0) are drawn.
    assert sum(1 for p in flat if near(p, (225, 71, 71))) > 20
    assert sum(1 for p in flat if near(p, (64, 120, 192))) > 200
