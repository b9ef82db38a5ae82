"""The docs: the generated game pages are current, the site builds with warnings as errors
(MkDocs ``--strict``), every Python block of the README runs, and every file the README links
or shows (``docs/img/*.gif``, made by ``docs/gen_gifs.py``, not regenerated here) exists."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_every_observation_plane_is_in_its_page_table():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import gen_pages
    finally:
        sys.path.remove(str(ROOT / "docs"))
    import botarena
    for env_id in botarena.ENV_IDS:
        env = botarena.parallel_env(env_id)
        planes = env.observation_space(env.possible_agents[0]).shape[0]
        rows = gen_pages.plane_rows(env_id)
        assert [index for index, _, _ in rows] == list(range(planes)), env_id
        page = (ROOT / "docs" / "games" / f"{env_id}.md").read_text()
        for index, name, meaning in rows:
            assert f"| {index} | `{name}` | {gen_pages.literal(meaning)} |" in page, name


def test_a_plane_without_a_comment_is_refused(monkeypatch):
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import gen_pages
    finally:
        sys.path.remove(str(ROOT / "docs"))
    source = "class Plane(IntEnum):\n" + "".join(
        f"    P{i} = {i}  # binary\n" if i != 4 else f"    P{i} = {i}\n" for i in range(6))
    monkeypatch.setattr(gen_pages.inspect, "getsource", lambda obj: source)
    with pytest.raises(ValueError, match="without a comment.*'P4'"):
        gen_pages.plane_rows("paint_v0")
