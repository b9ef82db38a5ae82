"""The docs: the generated game pages are current, the site builds with warnings as errors
(MkDocs ``--strict``), every Python block of the README runs, and every file the README links
or shows (``docs/img/*.gif``, made by ``docs/gen_gifs.py``, not regenerated here) exists."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_game_pages_are_current():
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_pages.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_site_builds_strict(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                             "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "site" / "games" / "coderunner_v0" / "index.html").exists()


def test_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_references_exist():
    text = (ROOT / "README.md").read_text()
    targets = re.findall(r'src="([^"]+)"', text) + re.findall(r"\]\(([^)\s]+)\)", text)
    local = [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:|#", t)]
    assert any(t.endswith(".gif") for t in local)
    missing = [t for t in local if not (ROOT / t).exists()]
    assert not missing, f"README.md refers to missing files: {missing}"
