"""Pascal Pons' Connect Four solver, built here to be measured beside ours.

His solver (github.com/PascalPons/connect4, AGPL-3.0: fetched, never shipped) is a C++
negamax over 64-bit bitboards with a null-window search, the reference for Connect Four.
``build_pons(source, width, height, into)`` clones (or copies) the source, sets the board
size (compile-time constants in Position.hpp), and compiles it with a driver of ours that
solves each position read on stdin (Pons' move strings: 1-based columns) without any
opening book, weakly (win/draw/loss, as our value proof) or strongly, and prints the
score, the nodes and the CPU microseconds of ``Solver::solve`` alone.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PONS_SOURCE", "PonsError", "PonsResult", "PonsSolver", "build_pons"]

PONS_SOURCE = "https://github.com/PascalPons/connect4"
"""Where ``build_pons`` fetches the solver from unless told another git source or folder."""

DRIVER = r"""
#include "Solver.hpp"
#include <ctime>
#include <iostream>
#include <string>

using namespace GameSolver::Connect4;

int main(int argc, char **argv) {
  bool weak = argc > 1 && std::string(argv[1]) == "-w";
  Solver solver;
  std::string line;
  while (std::getline(std::cin, line)) {
    Position P;
    if (P.play(line) != line.size()) {
      std::cout << "invalid" << std::endl;
      continue;
    }
    solver.reset();
    std::clock_t start = std::clock();
    int score = solver.solve(P, weak);
    std::clock_t end = std::clock();
    std::cout << score << " " << solver.getNodeCount() << " "
              << (long long)((end - start) * 1000000.0 / CLOCKS_PER_SEC) << std::endl;
  }
  return 0;
}
"""


class PonsError(RuntimeError):
    """Pons' solver could not be fetched, built or run."""


@dataclass(frozen=True, slots=True)
class PonsResult:
    score: int  # for the side to move: > 0 a win, 0 a draw, < 0 a loss
    nodes: int
    cpu_s: float


@dataclass(frozen=True, slots=True)
class PonsSolver:
    binary: Path
    width: int
    height: int

    def solve(self, moves: str = "", *, weak: bool = True, timeout: float = 600) -> PonsResult:
        """The position after ``moves`` (1-based columns), solved from scratch."""
        done = subprocess.run(
            [str(self.binary), *(["-w"] if weak else [])],
            input=moves + "\n",
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        words = done.stdout.split()
        if done.returncode != 0 or len(words) != 3:
            raise PonsError(f"pons' solver on {moves!r}: {done.stdout!r} {done.stderr!r}")
        score, nodes, micros = (int(word) for word in words)
        return PonsResult(score, nodes, micros / 1e6)


def _run(argv: list[str], cwd: Path | None = None) -> None:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise PonsError(f"{' '.join(argv)}: {done.stderr.strip()[-800:]}")


def build_pons(source: str, width: int, height: int, into: Path) -> PonsSolver:
    """Pons' solver for ``width`` × ``height`` boards, built under ``into`` (kept: a second
    call with the same arguments reuses the binary)."""
    if not (4 <= width <= 9 and height >= 4 and width * (height + 1) <= 64):
        raise PonsError(f"a {width}×{height} board does not fit Pons' 64-bit positions")
    checkout = into / "source"
    if not (checkout / "Solver.cpp").exists():
        shutil.rmtree(checkout, ignore_errors=True)
        into.mkdir(parents=True, exist_ok=True)
        if Path(source).is_dir() and (Path(source) / "Solver.cpp").exists():
            shutil.copytree(source, checkout)
        else:  # a URL, or a git directory (a bare mirror)
            _run(["git", "clone", "--quiet", "--depth", "1", source, str(checkout)])
    build = into / f"{width}x{height}"
    binary = build / "c4solver"
    if not binary.exists():
        shutil.rmtree(build, ignore_errors=True)
        shutil.copytree(checkout, build, ignore=shutil.ignore_patterns(".git"))
        header = build / "Position.hpp"
        text, count = re.subn(
            r"(static constexpr int WIDTH = )\d+;(.*\n.*static constexpr int HEIGHT = )\d+;",
            rf"\g<1>{width};\g<2>{height};",
            header.read_text(),
        )
        if count != 1:
            raise PonsError(f"{header}: no WIDTH and HEIGHT constants to set")
        header.write_text(text)
        (build / "driver.cpp").write_text(DRIVER)
        _run(
            ["g++", "--std=c++11", "-O3", "-DNDEBUG", "-o", "c4solver", "driver.cpp", "Solver.cpp"],
            cwd=build,
        )
    return PonsSolver(binary, width, height)
