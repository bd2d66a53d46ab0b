"""What users expect of a command-line tool: settings with origins, terminal vs pipe,
colour switches, progress, completion, stats, the bundled sample, an installable wheel."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from papercli.cli.app import app
from testing import PAPERS, ROOT, SOAK, generate_documents


def invoke(*args, env=None):
    return CliRunner(env=env).invoke(app, list(args))


# --- configuration ---------------------------------------------------------------------------


def settings(result):
    return {line.split("\t")[0]: line.split("\t")[1:] for line in result.stdout.splitlines()[1:]}


def test_config_precedence_default_file_environment_flag(tmp_path, monkeypatch):
    config = tmp_path / "config.yaml"
    monkeypatch.setenv("PAPERS_CONFIG", str(config))
    result = invoke("config")
    assert result.stdout.splitlines()[0] == f"config file: {config} (not present)"
    shown = settings(result)
    assert shown["limit"] == ["50 on a terminal, all when piped", "default"]
    assert shown["export_format"] == ["markdown", "default"]
    config.write_text(f"library: {tmp_path / 'from-file'}\nlimit: 7\nexport_format: bibtex\n")
    result = invoke("config")
    assert result.stdout.splitlines()[0] == f"config file: {config}"
    shown = settings(result)
    assert shown["library"] == [str(tmp_path / "from-file"), f"file: {config}"]
    assert shown["limit"] == ["7", f"file: {config}"]
    monkeypatch.setenv("PAPERS_LIMIT", "3")
    monkeypatch.setenv("PAPERS_LIBRARY", str(tmp_path / "from-env"))
    shown = settings(invoke("config"))
    assert shown["limit"] == ["3", "environment: PAPERS_LIMIT"]
    assert shown["library"] == [str(tmp_path / "from-env"), "environment: PAPERS_LIBRARY"]
    shown = settings(invoke("--library", str(tmp_path / "flag"), "--no-color", "config"))
    assert shown["library"] == [str(tmp_path / "flag"), "flag"]
    assert shown["color"] == ["never", "flag"]
    data = json.loads(invoke("config", "--json").stdout)
    assert data["settings"]["export_format"] == {
        "value": "bibtex",
        "origin": "file",
        "from": str(config),
    }


def test_config_shows_sets_and_unsets_one_setting_keeping_the_files_other_lines(
    tmp_path, monkeypatch
):
    config = tmp_path / "conf" / "config.yaml"
    monkeypatch.setenv("PAPERS_CONFIG", str(config))
    monkeypatch.chdir(tmp_path)
    assert invoke("config", "limit").stdout == "50 on a terminal, all when piped\n"
    result = invoke("config", "limit", "20")  # (the folder is made)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == f"papers: limit: 20 ({config})\n"
    assert config.read_text() == "limit: 20\n"
    config.write_text("# mine\nexport_format: bibtex  # for the thesis\nlimit: 20\ncolor: never\n")
    assert invoke("config", "limit", "7").exit_code == 0
    assert invoke("config", "library", "lib/../papers").exit_code == 0  # made absolute
    assert invoke("config", "--unset", "color").stderr == f"papers: removed color from {config}\n"
    assert config.read_text() == (
        f"# mine\nexport_format: bibtex  # for the thesis\nlimit: 7\nlibrary: {tmp_path / 'papers'}\n"
    )
    assert invoke("config", "limit").stdout == "7\n"


KNOWN = "(known: library, export_format, taxonomy, limit, color, passing, openreview_api, arxiv_api, crossref_api, contact_email)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["limit", "ten"], "'limit' must be a whole number of at least 1"),
        (["limt", "10"], f"unknown setting 'limt'; did you mean 'limit'? {KNOWN}"),
        (["zzz", "1"], f"unknown setting 'zzz' {KNOWN}"),
        (
            ["color", "alwys"],
            "'color' cannot be 'alwys'; did you mean 'always'? (one of: auto, always, never)",
        ),
        (
            ["colour", "red"],
            "unknown setting 'colour'; did you mean 'color'? (known: library, export_format, taxonomy, limit, color, passing, openreview_api, arxiv_api, crossref_api, contact_email)",
        ),
        (
            ["colour"],
            "unknown setting 'colour'; did you mean 'color'? (known: library, export_format, taxonomy, limit, color, passing, openreview_api, arxiv_api, crossref_api, contact_email)",
        ),
        (["--unset"], "give KEY VALUE to set a setting, or --unset KEY"),
        (["--unset", "limit", "5"], "give KEY VALUE to set a setting, or --unset KEY"),
        (
            ["library", "/tmp/a\nlimit: 1"],
            "'library' cannot hold a newline, a tab or another control character",
        ),
        (
            ["taxonomy", "/nonexistent/topics.yaml"],
            "/nonexistent/topics.yaml: cannot read the taxonomy (No such file or directory)",
        ),
    ],
)
def test_a_setting_that_cannot_be_written_leaves_the_file_alone(
    tmp_path, monkeypatch, args, message
):
    config = tmp_path / "config.yaml"
    config.write_text("limit: 5 # keep\n")
    monkeypatch.setenv("PAPERS_CONFIG", str(config))
    result = invoke("config", *args)
    assert (result.exit_code, result.stderr) == (2, f"papers: {message}\n")
    assert config.read_text() == "limit: 5 # keep\n"


def test_setting_what_the_environment_overrides_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERS_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("PAPERS_LIMIT", "3")
    result = invoke("config", "limit", "9")
    assert result.stderr.splitlines()[1] == (
        "papers: warning: PAPERS_LIMIT overrides the file: limit is 3"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("limit: ten\n", "'limit' must be a whole number of at least 1"),
        (
            "colour: red\n",
            "unknown setting 'colour'; did you mean 'color'? (known: library, export_format, taxonomy, limit, color, passing, openreview_api, arxiv_api, crossref_api, contact_email)",
        ),
        (
            "export_format: docx\n",
            "'export_format' cannot be 'docx' (one of: markdown, bibtex, biblatex, csl-json, json, yaml)",
        ),
        (
            "export_format: bibtx\n",
            "'export_format' cannot be 'bibtx'; did you mean 'bibtex'? (one of: markdown, bibtex, biblatex, csl-json, json, yaml)",
        ),
        ("color: [1\n", "line 2: did not find expected ',' or ']'"),
        ("- a list\n", "the config file must be a mapping of settings"),
        (
            "openreview_api: api2.openreview.net\n",
            "'openreview_api' must be an http:// or https:// address",
        ),
    ],
)
def test_an_invalid_config_names_the_key(tmp_path, monkeypatch, text, message):
    config = tmp_path / "config.yaml"
    config.write_text(text)
    monkeypatch.setenv("PAPERS_CONFIG", str(config))
    result = invoke("search", "muon")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"papers: {config}") and message in result.stderr


def test_settings_take_effect(seeded_library, tmp_path, monkeypatch):
    config = tmp_path / "config.yaml"
    config.write_text(f"library: {seeded_library.root}\nlimit: 2\nexport_format: csl-json\n")
    monkeypatch.setenv("PAPERS_CONFIG", str(config))
    assert len(invoke("search", "muon").stdout.splitlines()) == 2
    assert len(json.loads(invoke("search", "muon", "--json").stdout)) == 4  # --json is complete
    assert json.loads(invoke("export", "--id", "iclr2026-qzo").stdout)[0]["id"] == "qzo2026"


# --- terminal or pipe -------------------------------------------------------------------------


def unstyled(screen: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)


def run_in_pty(args, env_extra=None):
    """Run a real papers process with stdout and stderr on a pseudo-terminal."""
    main, sub = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env |= {"COLUMNS": "110", "LINES": "60", **(env_extra or {})}
    proc = subprocess.Popen(
        [str(PAPERS), *args], stdin=subprocess.DEVNULL, stdout=sub, stderr=sub, env=env
    )
    os.close(sub)
    out = b""
    while True:
        ready, _w, _x = select.select([main], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(main)
    return proc.returncode, out.decode("utf-8", "replace")


@pytest.mark.slow
def test_terminal_gets_a_coloured_table_and_a_pipe_gets_lines(seeded_library):
    code, screen = run_in_pty(["--library", str(seeded_library.root), "search", "muon"])
    assert code == 0
    assert "┃ paper (id)" in unstyled(screen) and "\x1b[36m" in screen  # a table, in colour
    piped = subprocess.run(
        [str(PAPERS), "--library", str(seeded_library.root), "search", "muon"],
        capture_output=True,
        text=True,
    )
    assert "┃" not in piped.stdout and "\x1b[" not in piped.stdout
    assert all(line.count("\t") == 6 for line in piped.stdout.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize(("switch", "env"), [(["--no-color"], {}), ([], {"NO_COLOR": "1"})])
def test_no_color_keeps_the_table_without_colour(seeded_library, switch, env):
    code, screen = run_in_pty(
        [*switch, "--library", str(seeded_library.root), "search", "muon"], env
    )
    assert code == 0 and "┃ paper (id)" in unstyled(screen)
    assert "\x1b[36m" not in screen and "33m" not in screen  # no cyan ids, no yellow matches


@pytest.mark.slow
def test_progress_bar_on_a_terminal_and_nothing_on_a_pipe(tmp_path):
    generate_documents(300, tmp_path / "docs", seed=5)
    docs = sorted(map(str, (tmp_path / "docs").glob("*.txt")))
    code, screen = run_in_pty(["--library", str(tmp_path / "a"), "ingest", *docs])
    assert code == 0 and "ingesting" in screen and "━" in screen and "/s" in screen
    assert "documents, 300 entries: 300 new, 0 merged" in screen
    piped = subprocess.run(
        [str(PAPERS), "--library", str(tmp_path / "b"), "ingest", *docs],
        capture_output=True,
        text=True,
    )
    assert piped.stderr == "" and "documents, 300 entries: 300 new" in piped.stdout


# --- completion, stats, sample ----------------------------------------------------------------


def complete(shell, words, library):
    env = {**os.environ, "_PAPERS_COMPLETE": f"complete_{shell}"}
    line = f"papers --library {library} {words}"
    if shell == "bash":
        env |= {"COMP_WORDS": line, "COMP_CWORD": str(len(line.split()) - 1)}
    else:
        env |= {"_TYPER_COMPLETE_ARGS": line, "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    return subprocess.run([str(PAPERS)], env=env, capture_output=True, text=True).stdout


@pytest.mark.slow
def test_completion_of_commands_options_ids_and_tags(seeded_library):
    lib = seeded_library.root
    subprocess.run([str(PAPERS), "--library", str(lib), "index"], check=True, capture_output=True)
    assert complete("bash", "sim", lib).split() == ["similar"]
    assert complete("bash", "export --fo", lib).split() == ["--format"]
    assert complete("bash", "show iclr2026-mu", lib).split() == ["iclr2026-muonbp"]
    assert complete("bash", "list --tag federated", lib).split() == ["federated-learning"]
    assert "iclr2026-qzo" in complete("zsh", "show iclr2026-q", lib)
    assert complete("fish", "show iclr2026-q", lib).split() == ["iclr2026-qzo"]
    script = subprocess.run(
        [str(PAPERS), "--show-completion", "bash"], capture_output=True, text=True
    )
    assert "_papers_completion" in script.stdout


def test_stats_on_the_bundled_corpus(seeded_library):
    data = json.loads(invoke("--library", str(seeded_library.root), "stats", "--json").stdout)
    assert data["papers"] == {"all": 63}
    assert data["venue"] == {"ICLR": 63} and data["year"] == {"2026": 63}
    assert data["category"] == {"优化/理论": 45}
    assert data["source"] == {
        "iclr2026-optimization-theory-digest.txt": 45,
        "iclr2026-abstracts.txt": 19,
    }
    assert data["title"] == {"titled": 45, "untitled": 18}
    assert data["languages"] == {
        "Chinese summary": 44,
        "English abstract": 18,
        "English abstract + Chinese summary": 1,
    }
    assert data["tag"]["federated-learning"] == 5


def test_sample_documents_are_the_bundled_ones(tmp_path):
    from papercli.cli.library import sample_documents

    assert [p.read_bytes() for p in sample_documents()] == [
        (ROOT / "data" / p.name).read_bytes() for p in sample_documents()
    ]
    result = invoke("--library", str(tmp_path / "lib"), "ingest", "--sample")
    assert (
        result.stdout
        == "ingested 2 documents, 64 entries: 63 new, 1 merged, 0 unchanged, 0 warnings\n"
    )


# --- installation ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not SOAK, reason="a packaging check of 20 s: make soak runs it")
def test_wheel_installs_and_runs_in_a_fresh_virtualenv(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    [wheel] = dist.glob("papercli-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    papers = str(venv / "bin" / "papers")
    work = tmp_path / "elsewhere"
    work.mkdir()  # away from the source tree: only the installed package is used

    def run(*args):
        return subprocess.run(
            [papers, "--library", str(work / "lib"), *args],
            cwd=work,
            capture_output=True,
            text=True,
        )

    assert run("--version").stdout.startswith("papers ")
    assert run("ingest", "--sample").stdout.startswith("ingested 2 documents, 64 entries: 63 new")
    assert sorted(
        line.split("\t")[0] for line in run("search", "muon").stdout.splitlines()
    ) == sorted(
        [
            "iclr2026-convergence-muon-newton-schulz",
            "iclr2026-ef21-muon",
            "iclr2026-muonbp",
            "iclr2026-convergence-analysis-adaptive-optimizers-under",
        ]
    )
    assert "federated-learning\t5" in run("tags").stdout  # the taxonomy shipped in the wheel


# --- small things a new user trips over ---------------------------------------------------------


def test_library_and_no_color_work_after_the_command_name(seeded_library):
    lib = str(seeded_library.root)
    before = invoke("--library", lib, "--no-color", "search", "muon")
    after = invoke("search", "muon", "--no-color", "--library", lib)
    assert after.exit_code == 0 and after.stdout == before.stdout
    assert (
        invoke("config", "-L", lib, "--no-color").stdout
        == invoke("--library", lib, "--no-color", "config").stdout
    )


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o default -F _papers_completion papers"),
        ("zsh", "#compdef papers"),
        ("fish", "complete --command papers"),
    ],
)
def test_show_completion_prints_the_named_shells_script(shell, marker):
    result = subprocess.run(
        [str(PAPERS), "--show-completion", shell], capture_output=True, text=True
    )
    assert result.returncode == 0 and marker in result.stdout, result.stdout[:200]


def test_show_completion_for_a_shell_it_cannot_complete_is_an_error():
    result = subprocess.run(
        [str(PAPERS), "--show-completion", "tcsh"], capture_output=True, text=True
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.endswith(
        "Error: --show-completion tcsh: papers completes bash, zsh, fish and PowerShell "
        "(powershell, pwsh)\n"
    )


def test_output_files_get_the_permissions_a_redirect_would(seeded_library, tmp_path):
    lib = str(seeded_library.root)
    old = os.umask(0o022)
    try:
        new = tmp_path / "new.bib"
        assert (
            invoke(
                "--library", lib, "export", "--tag", "muon", "--format", "bibtex", "-o", str(new)
            ).exit_code
            == 0
        )
        assert new.stat().st_mode & 0o777 == 0o644
        private = tmp_path / "private.bib"
        private.write_text("old")
        private.chmod(0o600)
        assert (
            invoke("--library", lib, "export", "--tag", "muon", "-o", str(private)).exit_code == 0
        )
        assert private.stat().st_mode & 0o777 == 0o600 and private.read_text() != "old"
    finally:
        os.umask(old)


def test_help_paragraphs_are_wrapped_whole_and_examples_keep_their_indentation():
    """Rich help (a terminal) at 80 columns: prose fills its lines; examples stay indented."""
    from rich.cells import cell_len

    commands = [
        "ingest",
        "add",
        "search",
        "similar",
        "list",
        "show",
        "tags",
        "tag",
        "retag",
        "export",
        "index",
        "edit",
        "doctor",
        "config",
        "stats",
    ]
    for name in commands:
        text = CliRunner(env={"COLUMNS": "80"}).invoke(app, [name, "--help"]).stdout
        description = text.split("Usage:", 1)[1].split("╭─", 1)[0].split("\n")[2:]
        paragraphs = "\n".join(line.rstrip() for line in description).strip("\n").split("\n\n")
        for paragraph in paragraphs:
            lines = paragraph.split("\n")
            if lines[0].strip().endswith(":"):  # Examples:, Query language:, Keys:
                assert all(line.startswith("   ") for line in lines[1:]), (name, paragraph)
                continue
            for line in lines[:-1]:  # a line ends only where the next word would not fit
                following = lines[lines.index(line) + 1].split()[0]
                assert cell_len(line) + 1 + cell_len(following) > 79, (
                    name,
                    paragraph,
                )


SEARCH_EXAMPLES = [
    "papers search muon",
    'papers search "federated learning" year:2026',
    "papers search 联邦学习 --exact",
    "papers search GSM --no-passing",
    "papers search muon --ids | papers export --format bibtex -",
]


def test_search_help_fits_one_screen_and_ends_its_text_with_five_examples():
    """`papers search --help`, as a process prints it at 100 columns, is at most 30 lines:
    the query language as a table and five examples; the whole account is docs/search.md."""
    env = {k: v for k, v in os.environ.items() if k != "TYPER_USE_RICH"} | {"COLUMNS": "100"}
    result = subprocess.run(
        [str(PAPERS), "search", "--help"], capture_output=True, text=True, env=env
    )
    assert (result.returncode, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert len(lines) <= 30, result.stdout
    start = lines.index("  Examples:") + 1
    assert lines[start : start + 6] == [f"    {example}" for example in SEARCH_EXAMPLES] + [""]


@pytest.mark.parametrize(
    ("args", "help_says"),
    [
        (["show", "--help"], "Print the record as a JSON object."),
        (["config", "--help"], "Print the settings as one JSON object."),
        (["stats", "--help"], "Print the counts as one JSON object"),
    ],
)
def test_json_help_says_what_is_printed(args, help_says):
    assert help_says in CliRunner(env={"COLUMNS": "200"}).invoke(app, args).stdout


def test_removing_a_tag_a_paper_does_not_have_is_reported(seeded_library):
    lib = str(seeded_library.root)
    result = invoke("--library", lib, "tag", "iclr2026-muonbp", "--remove", "no-such-tag")
    assert result.exit_code == 1
    assert result.stderr == "papers: warning: iclr2026-muonbp has no tag 'no-such-tag' to remove\n"
    again = invoke(
        "--library", lib, "tag", "iclr2026-muonbp", "--remove", "llm", "--remove", "no-such-tag"
    )
    assert again.exit_code == 0 and "llm" not in again.stdout  # one removal happened


def test_show_prints_latex_as_it_reads(seeded_library):
    shown = invoke("--library", str(seeded_library.root), "show", "iclr2026-qzo").stdout
    assert "more than 18× for 4-bit LLMs" in shown and "$\\times$" not in shown
    raw = json.loads(
        invoke("--library", str(seeded_library.root), "show", "iclr2026-qzo", "--json").stdout
    )
    assert "18$\\times$" in raw["abstract"]  # the record itself is unchanged


def test_config_on_a_terminal_is_a_table_with_the_limit_in_force(seeded_library):
    result = CliRunner(env={"FORCE_COLOR": "1", "COLUMNS": "120", "NO_COLOR": "1"}).invoke(
        app, ["config"]
    )
    screen = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout)
    assert re.search(r"setting +┃ value", screen) and "\t" not in screen
    assert re.search(r"limit +│ 50 on a terminal, all when piped +│ default", screen)
