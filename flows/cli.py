"""The `newsclean` command line. It builds Settings, runs flows and prints results; nothing else."""
from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from newsclean.flows.env import configure

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Turn scraped news into a clean, trustworthy text corpus.")
console = Console(stderr=True)


def _print_version(value: bool) -> None:
    if value:
        from newsclean import __version__

        typer.echo(f"newsclean {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print newsclean's version and exit."),
) -> None:
    """newsclean: clean scraped news from RAW_DIR into validated tables in OUT_DIR."""


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)  # one plain line: no wrapping, no traceback
    raise typer.Exit(code)


def _check_dirs(raw_dir: str, out_dir: str) -> tuple[str, str]:
    """RAW_DIR and OUT_DIR checked, as the strings the flow takes (a file:// URL as its path)."""
    from newsclean.cleaners.readers import storage
    from newsclean.flows.run import RunFoldersError, check_dirs

    try:
        check_dirs(raw_dir, out_dir)
    except RunFoldersError as exc:
        fail(str(exc))
    return storage.plain(raw_dir), storage.plain(out_dir)


def _summary_table(summary: dict) -> Table:
    t = Table(title="newsclean run", show_header=False, box=None)
    t.add_row("documents read", str(summary["docs_read"]))
    t.add_row("cleaned", str(summary["docs_cleaned"]))
    t.add_row("quarantined", str(summary["docs_quarantined"]))
    inc = summary.get("incremental")
    if inc:
        t.add_row("sources", f"{inc['sources_total']}: {inc['sources_to_clean']} cleaned, {inc['sources_kept']} unchanged, "
                             f"{inc['sources_deleted']} deleted" + (f" (full: {inc['full_reason']})" if inc.get("full_reason") else ""))
    kinds = sorted(set(summary["lines_removed"]) | set(summary["spans_removed"]))
    for k in kinds:
        t.add_row(f"removed {k}", f"{summary['lines_removed'].get(k, 0)} lines, {summary['spans_removed'].get(k, 0)} spans")
    for name, path in summary["outputs"].items():
        t.add_row(name, path)
    t.add_row("time", f"{summary['durations_s']['total']:.1f} s")
    return t


@app.command()
def run(
    raw_dir: str = typer.Argument("raw", help="Folder of raw input (searched recursively), or a URL of objects: s3://bucket/prefix."),
    out_dir: str = typer.Argument("clean", help="Folder the tables are written to, or a URL of objects: s3://bucket/prefix."),
    settings_file: Optional[Path] = typer.Option(None, "--settings", help="TOML file with a [newsclean] table of settings."),
    keep_curly_quotes: Optional[bool] = typer.Option(None, "--keep-curly-quotes/--straighten-quotes", help="Keep typographic quotes (default: straighten)."),
    batch_size: Optional[int] = typer.Option(None, help="Documents per Prefect task."),
    task_runner: str = typer.Option("process", help="process (all cores), thread, or dask."),
    dask_address: Optional[str] = typer.Option(None, help="Address of an existing Dask scheduler (with --task-runner dask), e.g. tcp://host:8786."),
    full: bool = typer.Option(False, "--full", help="Re-clean every source (default: only new or changed ones)."),
) -> None:
    """Clean RAW_DIR into OUT_DIR through the `clean-corpus` Prefect flow (incremental: see README)."""
    raw_dir, out_dir = _check_dirs(raw_dir, out_dir)
    if task_runner not in ("process", "thread", "dask"):
        fail(f"unknown task runner {task_runner!r}: use process, thread or dask")
    from newsclean.cleaners.runlock import LockedError, RunLock

    from newsclean.cleaners.readers.storage import out_folder

    lock = RunLock(out_folder(out_dir))  # taken before Prefect starts: a second run fails in a second, not after start-up
    try:
        lock.acquire()
    except LockedError as exc:
        fail(str(exc), code=3)
    configure()
    from newsclean.cleaners.settings import Settings

    try:
        settings = Settings.load(settings_file, keep_curly_quotes=keep_curly_quotes, batch_size=batch_size)
    except (OSError, ValueError) as exc:
        fail(f"bad settings: {exc}")
    from newsclean.cleaners import upstream
    from newsclean.flows import prefect_api

    api = None
    try:
        api = prefect_api.start_temporary_api()  # comes up while the flow's modules import
        from newsclean.flows import progress
        from newsclean.flows.clean_corpus import MissingExtra
        from newsclean.flows.run import run_clean_corpus

        upstream.require(*upstream.libraries())  # before any document, not at the first HTML page
    except upstream.UpstreamMismatch as exc:
        if api is not None:
            api.stop()
        lock.release()
        fail(str(exc))

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=False) as bar:
        job = bar.add_task("starting Prefect", total=None)

        def on_progress(stage: str, done: int, total: int) -> None:
            if stage == "clean":
                bar.update(job, description="cleaning", completed=done, total=total)
            else:  # a pass with no per-item progress: an indeterminate bar with the stage's name
                bar.update(job, description=stage, completed=0, total=None)

        progress.listen(on_progress)
        failure = None
        try:
            console_logs_without_tracebacks()
            summary = run_clean_corpus(raw_dir, out_dir, settings, task_runner=task_runner, dask_address=dask_address,
                                       full=full, api=api)
        except MissingExtra as exc:
            fail(str(exc))
        except Exception as exc:  # noqa: BLE001 - a failed run ends in its one-line error, after the progress bar
            failure = exc
        finally:
            progress.listen(None)
            lock.release()
    if failure is not None:
        fail(f"the run failed: {one_line(failure)} (PREFECT_LOGGING_LEVEL=DEBUG shows its traceback)", code=1)
    Console().print(_summary_table(summary))


def one_line(exc: BaseException) -> str:
    """An exception as one line: its type and its message with line breaks folded."""
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


class _WithoutTraceback(logging.Formatter):
    """Formats a record as `inner` does, without its traceback."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        saved = record.exc_info, record.exc_text, record.stack_info
        record.exc_info = record.exc_text = record.stack_info = None
        try:
            return self.inner.format(record)
        finally:
            record.exc_info, record.exc_text, record.stack_info = saved


def console_logs_without_tracebacks() -> None:
    """Prefect's console log lines without their tracebacks (a failed task or flow logs one at
    ERROR): the run's error is the CLI's last line. Kept when Prefect logs at DEBUG; the run's logs
    sent to Prefect's API keep them too."""
    from prefect.logging.handlers import PrefectConsoleHandler

    if logging.getLogger("prefect").getEffectiveLevel() <= logging.DEBUG:
        return
    loggers = [logging.getLogger(), *(lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger))]
    for handler in {h for lg in loggers for h in lg.handlers if isinstance(h, PrefectConsoleHandler)}:
        if not isinstance(handler.formatter, _WithoutTraceback):
            handler.setFormatter(_WithoutTraceback(handler.formatter or logging.Formatter()))


@app.command()
def schema(as_json: bool = typer.Option(False, "--json", help="Print the contract as JSON for other tools.")) -> None:
    """Print the output tables' columns, types, nullability and checks (the pandera contract)."""
    import json

    from rich.markup import escape

    from newsclean.schemas.describe import describe

    contract = describe()
    if as_json:
        typer.echo(json.dumps(contract, indent=2, ensure_ascii=False))
        return
    out = Console(width=200)
    for name, table in contract.items():
        if name == "cross_table_checks":
            continue
        t = Table(title=f"{table['file']}: {table['description']}", title_justify="left")
        for col in ("column", "type", "nullable", "meaning", "checks"):
            t.add_column(col, overflow="fold")
        for c in table["columns"]:
            t.add_row(c["name"], escape(c["type"]), "yes" if c["nullable"] else "no", escape(c["description"]),
                      escape("; ".join(k["meaning"] for k in c["checks"])))
        out.print(t)
        for k in table["checks"]:
            out.print(f"  table check [bold]{escape(k['name'])}[/bold]: {escape(k['meaning'])}")
        out.print()
    out.print("[bold]cross-table checks[/bold]")
    for k in contract["cross_table_checks"]:
        out.print(f"  {escape(k['name'])} ({', '.join(k['tables'])}): {escape(k['meaning'])}")


@app.command()
def serve(
    raw_dir: str = typer.Argument("raw", help="Folder of raw input (searched recursively), or a URL of objects: s3://bucket/prefix."),
    out_dir: str = typer.Argument("clean", help="Folder the tables are written to, or a URL of objects: s3://bucket/prefix."),
    cron: Optional[str] = typer.Option(None, help='Cron schedule, e.g. "0 * * * *" (every hour).'),
    interval: Optional[float] = typer.Option(None, help="Run every this many seconds."),
    name: str = typer.Option("newsclean", help="Deployment name."),
    settings_file: Optional[Path] = typer.Option(None, "--settings", help="TOML file with a 'newsclean' table of settings."),
    full: bool = typer.Option(False, "--full", help="Re-clean every source on every run."),
) -> None:
    """Serve the `clean-corpus` flow as a deployment with a schedule (needs a Prefect server: PREFECT_API_URL).

    Runs start on schedule (without --cron/--interval: on demand only), or on demand with
    `prefect deployment run clean-corpus/NAME`. Stop with Ctrl-C.
    """
    if cron and interval:
        fail("give --cron or --interval, not both")
    if interval is not None and interval <= 0:
        fail("--interval must be a positive number of seconds")
    raw_dir, out_dir = _check_dirs(raw_dir, out_dir)
    configure()
    from newsclean.cleaners.settings import Settings

    try:
        settings = Settings.load(settings_file)
    except (OSError, ValueError) as exc:
        fail(f"bad settings: {exc}")
    from newsclean.cleaners.readers import storage
    from newsclean.flows.serve import serve_flow, ServeError

    try:
        serve_flow(storage.display(raw_dir), storage.display(out_dir), cron=cron, interval=interval, name=name,
                   settings=settings.model_dump(), full=full)
    except ServeError as exc:
        fail(str(exc))


_PASSTHROUGH = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


@app.command(context_settings=_PASSTHROUGH)
def train(ctx: typer.Context) -> None:
    """Train the line model from the dev pages (reproducible; see --help). Writes cleaners/model/files/."""
    from newsclean.cleaners.model.train import main as train_main

    raise typer.Exit(train_main(ctx.args) or 0)


@app.command(name="eval", context_settings=_PASSTHROUGH)
def evaluate(ctx: typer.Context) -> None:
    """Score the real pipeline on the dev pages' text: P/R/F1, pages under 0.5, leak, title match (--cv 2: cross-validated)."""
    from newsclean.cleaners.model.evaluate import main as eval_main

    raise typer.Exit(eval_main(ctx.args) or 0)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        console.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
